import type supertest from 'supertest';
import type { checkedApi } from './openapi.js';
import { formsOf, type PageForm } from './oauth-flow.js';

/** A browser of the pages: a cookie jar over the app, every response checked against the document. */
export type Browser = ReturnType<typeof checkedApi>;

/** The form on the page that posts to `action` (its query and fragment aside); the test fails without one. */
export function formFor(html: string, action: string): PageForm {
  const form = formsOf(html).find((candidate) => candidate.action.split(/[?#]/)[0] === action);
  if (!form) throw new Error(`no form posting to ${action} on the page:\n${html.slice(0, 2000)}`);
  return form;
}

/** Posts `form` as a browser would: its hidden fields, then what was typed. */
export function submit(browser: Browser, form: PageForm, typed: Record<string, string> = {}): supertest.Test {
  return browser
    .post(form.action.split('#')[0]!)
    .type('form')
    .send({ ...form.fields, ...typed });
}

/** What the page says it refused, in its alert. */
export const alertOf = (html: string) => /<p class="alert" role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1]?.trim();
