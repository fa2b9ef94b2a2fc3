import { expect } from 'chai';
import type Koa from 'koa';
import type supertest from 'supertest';
import { forumctl } from './cli.js';
import { testEnv } from './env.js';
import { checkedApi } from './openapi.js';
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

/** The password of every member `signedInAs` makes. */
export const PASSWORD = 'correct horse battery';

/**
 * A browser signed in as `login` (made with forumctl and a password, an administrator if asked) through the sign-in
 * page.
 */
export async function signedInAs(login: string, options: { admin?: boolean; app?: Koa } = {}): Promise<Browser> {
  const args = ['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD];
  const made = await forumctl(options.admin ? [...args, '--admin'] : args);
  expect(made.code, made.stderr).to.equal(0);
  const browser = checkedApi(options.app ?? testEnv().app, { cookies: true });
  const page = await browser.get('/account/sign-in').expect(200);
  await submit(browser, formFor(page.text, '/account/sign-in'), { login, password: PASSWORD }).expect(303);
  return browser;
}
