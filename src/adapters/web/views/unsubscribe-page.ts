import type { MailList } from '../../../application/ports.js';
import type { Locale } from '../../../domain/users/user.js';
import { accountPage, actionFor, type Frame } from './account-pages.js';
import { html } from './html.js';

/** The words of the unsubscribe pages, in each language. */
const WORDS = {
  en: {
    title: 'Unsubscribe',
    what: { notifications: 'mail about replies and mentions', digest: 'the digest of new topics' } as Record<MailList, string>,
    ask: (what: string) => `Stop sending you ${what}?`,
    button: 'Unsubscribe',
    done: (what: string) => `You will get no more ${what}.`,
    settings: 'Change what you get on your settings page',
    badTitle: 'This link does not work',
    bad: 'This unsubscribe link is not one we sent, or it was cut short: use the whole link from the mail, or change your mail settings on your settings page.',
  },
  'zh-CN': {
    title: '退订',
    what: { notifications: '回复和提及的邮件通知', digest: '新话题摘要邮件' } as Record<MailList, string>,
    ask: (what: string) => `不再给你发送${what}？`,
    button: '退订',
    done: (what: string) => `你将不会再收到${what}。`,
    settings: '可以在设置页面修改收取哪些邮件',
    badTitle: '链接无效',
    bad: '这个退订链接不是我们发出的，或者不完整：请使用邮件中的完整链接，或到设置页面修改邮件设置。',
  },
} satisfies Record<Locale, unknown>;

/** What the link would stop, and the button that stops it (opening the link changes nothing: mail scanners open links). */
export function unsubscribePage(input: { frame: Frame; key: string; list: MailList }): string {
  const words = WORDS[input.frame.locale];
  return accountPage(
    input.frame,
    () => words.title,
    () =>
      html`<h1>${words.title}</h1>
        <p>${words.ask(words.what[input.list])}</p>
        <form
          method="post"
          action="${`${actionFor('/account/unsubscribe', input.frame.locale)}&key=${encodeURIComponent(input.key)}`}"
        >
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit">${words.button}</button>
        </form>`,
  );
}

export function unsubscribedPage(input: { frame: Frame; list: MailList }): string {
  const words = WORDS[input.frame.locale];
  return accountPage(
    input.frame,
    () => words.title,
    () =>
      html`<h1>${words.title}</h1>
        <p class="notice" role="status">${words.done(words.what[input.list])}</p>
        <p><a href="/account/settings">${words.settings}</a></p>`,
  );
}

export function badUnsubscribePage(input: { frame: Frame }): string {
  const words = WORDS[input.frame.locale];
  return accountPage(
    input.frame,
    () => words.badTitle,
    () =>
      html`<h1>${words.badTitle}</h1>
        <p class="alert" role="alert">${words.bad}</p>
        <p><a href="/account/settings">${words.settings}</a></p>`,
  );
}
