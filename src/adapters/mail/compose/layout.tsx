import type { ComponentChildren } from 'preact';
import type { MailRecipient } from '../../../application/mail/mail-composer.js';
import { LOCALES, type Locale } from '../../../domain/users/user.js';
import { renderDocument } from '../../presentation/html.js';
import { type MailWords, wordsOf } from '../../presentation/words/index.js';

/**
 * How every mail looks: each mail (letters.ts) says what it has (paragraphs, the posts it carries, a button,
 * links) in the words of the recipient's language (presentation/words); this file adds the greeting and the
 * closing and draws both parts: the text, and the HTML through the same typed views as the pages
 * (presentation/html.ts: every value escaped). The HTML is plain and inline-styled (no remote images, no scripts,
 * no styles a mail client strips).
 */

export const MAIL_LOCALES = LOCALES;

/** What every mail knows: the site (PUBLIC_URL's host) and the account it writes to. */
export type Recipient = MailRecipient;

/** A post quoted whole in a mail: who wrote it (the heading; empty when the lead says it), its HTML for mail and its text. */
export interface QuotedPost {
  heading: string;
  /** The core's sanitized body_html, made fit for mail (post-html.ts): the one part not escaped. */
  html: string;
  text: string;
}

/**
 * A mail's words, before the layout: paragraphs, the posts it carries, an optional button with its link,
 * paragraphs after it. A mail a person may answer or leave (notifications, digests) has its own footer: why it
 * came and the links that stop it, in place of "replies are not read"; and no greeting, since it is not a letter.
 */
export interface Letter {
  subject: string;
  paragraphs: string[];
  posts?: QuotedPost[];
  /** A list of linked entries (a digest's topics). */
  items?: MailListItem[];
  /** The button; `copy: false` leaves out the copy of its link under it (a mail whose body links already). */
  action?: { label: string; url: string; copy?: false };
  after?: string[];
  /** The footer's lines (default: "sent automatically; replies are not read") and links under them. */
  footer?: { lines?: string[]; links: { label: string; url: string }[] };
  greeting?: false;
}

/** One entry of a mail's list (a digest's topics): a linked title, a line about it, and the start of its text. */
export interface MailListItem {
  title: string;
  url: string;
  about: string;
  excerpt: string;
}

/** One mail: its letter, from the words of the recipient's language and the facts. */
export type Template<Facts> = (words: MailWords, facts: Recipient & Facts) => Letter;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function renderMail<Facts>(template: Template<Facts>, locale: Locale, facts: Recipient & Facts): RenderedMail {
  const words = wordsOf(locale).mail;
  const letter = template(words, facts);
  return { subject: letter.subject, text: text(letter, words, facts), html: html(letter, words, facts, locale) };
}

function text(letter: Letter, words: MailWords, facts: Recipient): string {
  const blocks = [...(letter.greeting === false ? [] : [words.greeting(facts.name)]), ...letter.paragraphs];
  for (const post of letter.posts ?? []) {
    blocks.push(post.heading ? `${post.heading}\n\n${post.text.trim()}` : post.text.trim(), '---');
  }
  // Numbered, each indented under its title, its link on a line of its own (mail clients make it clickable).
  (letter.items ?? []).forEach((item, i) =>
    blocks.push([`${i + 1}. ${item.title}`, item.about, ...(item.excerpt ? [item.excerpt] : []), item.url].join('\n   ')),
  );
  if (letter.action) blocks.push(`${letter.action.label}${words.colon}\n${letter.action.url}`);
  const footer = [
    ...(letter.footer?.lines ?? [words.sentAutomatically(facts.site)]),
    ...(letter.footer?.links ?? []).map((link) => `${link.label}${words.colon}\n${link.url}`),
  ];
  blocks.push(...(letter.after ?? []), `-- \n${facts.site}\n${footer.join('\n')}`);
  return `${blocks.join('\n\n')}\n`;
}

const STYLE = {
  // Font names in single quotes: the style sits in a double-quoted attribute.
  body: "margin:0;padding:24px 12px;background:#f6f6f6;color:#222;font:15px/1.6 -apple-system,'Segoe UI',Helvetica,Arial,'PingFang SC','Microsoft YaHei',sans-serif",
  card: 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff;border:1px solid #e2e2e2;border-radius:6px',
  p: 'margin:0 0 16px',
  button:
    'display:inline-block;padding:10px 18px;background:#1f6feb;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:600',
  small: 'margin:0 0 16px;font-size:13px;color:#555',
  copiedLink: 'color:#1f6feb;word-break:break-all',
  footer: 'max-width:560px;margin:12px auto 0;font-size:12px;color:#777;text-align:center',
  footerLink: 'color:#777',
  post: 'margin:0 0 20px;padding:0 0 4px;border-bottom:1px solid #eee',
  heading: 'margin:0 0 8px;font-size:13px;color:#555',
  item: 'margin:0 0 16px;padding:0 0 16px;border-bottom:1px solid #ececec',
  lastItem: 'margin:0 0 24px',
  itemTitle: 'margin:0 0 4px;font-size:16px;line-height:1.4;font-weight:600',
  itemLink: 'color:#1f6feb;text-decoration:none',
  about: 'margin:0 0 6px;font-size:13px;line-height:1.5;color:#666',
  excerpt: 'margin:0;font-size:14px;line-height:1.55;color:#333;overflow-wrap:anywhere',
};

/** Parts one after another, `separator` between each two. */
function joined(parts: ComponentChildren[], separator: ComponentChildren): ComponentChildren[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [separator, part]));
}

function MailBody(props: { letter: Letter; words: MailWords; facts: Recipient }) {
  const { letter, words, facts } = props;
  const items = letter.items ?? [];
  const lines = letter.footer?.lines ?? [words.sentAutomatically(facts.site)];
  const links = (letter.footer?.links ?? []).map((link) => (
    <a href={link.url} style={STYLE.footerLink}>
      {link.label}
    </a>
  ));
  return (
    <body style={STYLE.body}>
      <div style={STYLE.card}>
        {letter.greeting === false ? null : <p style={STYLE.p}>{words.greeting(facts.name)}</p>}
        {letter.paragraphs.map((words) => (
          <p style={STYLE.p}>{words}</p>
        ))}
        {(letter.posts ?? []).map((post) => (
          <div style={STYLE.post}>
            {post.heading ? <p style={STYLE.heading}>{post.heading}</p> : null}
            {/* The API's sanitized body_html, made fit for mail: the one part that is not escaped. */}
            <div dangerouslySetInnerHTML={{ __html: post.html }} />
          </div>
        ))}
        {items.map((item, i) => (
          // A rule between items; none under the last, where the button or the closing words follow.
          <div style={i === items.length - 1 ? STYLE.lastItem : STYLE.item}>
            <p style={STYLE.itemTitle}>
              <a href={item.url} style={STYLE.itemLink}>
                {item.title}
              </a>
            </p>
            <p style={STYLE.about}>{item.about}</p>
            {item.excerpt ? <p style={STYLE.excerpt}>{item.excerpt}</p> : null}
          </div>
        ))}
        {letter.action ? (
          <>
            <p style={STYLE.p}>
              <a href={letter.action.url} style={STYLE.button}>
                {letter.action.label}
              </a>
            </p>
            {letter.action.copy === false ? null : (
              <p style={STYLE.small}>
                {words.copyLink}
                <br />
                <a href={letter.action.url} style={STYLE.copiedLink}>
                  {letter.action.url}
                </a>
              </p>
            )}
          </>
        ) : null}
        {(letter.after ?? []).map((words) => (
          <p style={STYLE.p}>{words}</p>
        ))}
      </div>
      <p style={STYLE.footer}>{joined([...lines, ...(links.length > 0 ? [joined(links, ' · ')] : [])], <br />)}</p>
    </body>
  );
}

function html(letter: Letter, words: MailWords, facts: Recipient, locale: Locale): string {
  return renderDocument(
    <html lang={locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>{letter.subject}</title>
      </head>
      <MailBody letter={letter} words={words} facts={facts} />
    </html>,
  );
}
