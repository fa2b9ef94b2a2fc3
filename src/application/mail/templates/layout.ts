/**
 * How every mail looks: the words come from one file per mail (this folder), in each language; this file adds the
 * greeting and the closing and draws both parts. The HTML is plain and inline-styled (no remote images, no
 * scripts, no styles a mail client strips), every value escaped.
 */

export const MAIL_LOCALES = ['en', 'zh-CN'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

/** What every mail knows: the site (PUBLIC_URL's host) and the account it writes to. */
export interface Recipient {
  site: string;
  siteUrl: string;
  login: string;
  /** The display name, or the login when there is none. */
  name: string;
}

/** A post quoted whole in a mail: who wrote it (the heading; empty when the lead says it), its HTML for mail and its text. */
export interface QuotedPost {
  heading: string;
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

/** One mail in each language. */
export type Template<Facts> = Record<MailLocale, (facts: Recipient & Facts) => Letter>;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const FRAME = {
  en: {
    greeting: (name: string) => `Hi ${name},`,
    copy: 'If the button does not work, copy this link into your browser:',
    colon: ':',
    footer: (site: string) => `This mail was sent automatically by ${site}; replies are not read.`,
  },
  'zh-CN': {
    greeting: (name: string) => `${name}，你好：`,
    copy: '如果按钮无法使用，请把这个链接复制到浏览器中打开：',
    colon: '：',
    footer: (site: string) => `这封邮件由 ${site} 自动发送，回复不会有人阅读。`,
  },
} as const;

export function renderMail<Facts>(template: Template<Facts>, locale: MailLocale, facts: Recipient & Facts): RenderedMail {
  const letter = template[locale](facts);
  const frame = FRAME[locale];
  return { subject: letter.subject, text: text(letter, frame, facts), html: html(letter, frame, facts, locale) };
}

function text(letter: Letter, frame: (typeof FRAME)[MailLocale], facts: Recipient): string {
  const blocks = [...(letter.greeting === false ? [] : [frame.greeting(facts.name)]), ...letter.paragraphs];
  for (const post of letter.posts ?? []) {
    blocks.push(post.heading ? `${post.heading}\n\n${post.text.trim()}` : post.text.trim(), '---');
  }
  // Numbered, each indented under its title, its link on a line of its own (mail clients make it clickable).
  (letter.items ?? []).forEach((item, i) =>
    blocks.push([`${i + 1}. ${item.title}`, item.about, ...(item.excerpt ? [item.excerpt] : []), item.url].join('\n   ')),
  );
  if (letter.action) blocks.push(`${letter.action.label}${frame.colon}\n${letter.action.url}`);
  const footer = [
    ...(letter.footer?.lines ?? [frame.footer(facts.site)]),
    ...(letter.footer?.links ?? []).map((link) => `${link.label}${frame.colon}\n${link.url}`),
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

function html(letter: Letter, frame: (typeof FRAME)[MailLocale], facts: Recipient, locale: MailLocale): string {
  const p = (words: string, style = STYLE.p) => `<p style="${style}">${escapeHtml(words)}</p>`;
  const parts = [
    ...(letter.greeting === false ? [] : [p(frame.greeting(facts.name))]),
    ...letter.paragraphs.map((words) => p(words)),
  ];
  // A post's HTML is the API's sanitized body_html, made fit for mail (PostHtml): the one part not escaped here.
  for (const post of letter.posts ?? []) {
    parts.push(`<div style="${STYLE.post}">${post.heading ? p(post.heading, STYLE.heading) : ''}${post.html}</div>`);
  }
  (letter.items ?? []).forEach((item, i, items) => {
    // A rule between items; none under the last, where the button or the closing words follow.
    parts.push(
      `<div style="${i === items.length - 1 ? STYLE.lastItem : STYLE.item}">`,
      `<p style="${STYLE.itemTitle}"><a href="${escapeHtml(item.url)}" style="${STYLE.itemLink}">${escapeHtml(item.title)}</a></p>`,
      p(item.about, STYLE.about),
      ...(item.excerpt ? [p(item.excerpt, STYLE.excerpt)] : []),
      '</div>',
    );
  });
  if (letter.action) {
    const url = escapeHtml(letter.action.url);
    parts.push(`<p style="${STYLE.p}"><a href="${url}" style="${STYLE.button}">${escapeHtml(letter.action.label)}</a></p>`);
    if (letter.action.copy !== false) {
      parts.push(
        `<p style="${STYLE.small}">${escapeHtml(frame.copy)}<br><a href="${url}" style="color:#1f6feb;word-break:break-all">${url}</a></p>`,
      );
    }
  }
  parts.push(...(letter.after ?? []).map((words) => p(words)));
  return [
    '<!doctype html>',
    `<html lang="${locale}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(letter.subject)}</title></head>`,
    `<body style="${STYLE.body}">`,
    `<div style="${STYLE.card}">`,
    ...parts,
    '</div>',
    footerHtml(letter, frame, facts),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function footerHtml(letter: Letter, frame: (typeof FRAME)[MailLocale], facts: Recipient): string {
  const lines = (letter.footer?.lines ?? [frame.footer(facts.site)]).map(escapeHtml);
  const links = (letter.footer?.links ?? [])
    .map((link) => `<a href="${escapeHtml(link.url)}" style="${STYLE.footerLink}">${escapeHtml(link.label)}</a>`)
    .join(' · ');
  return `<p style="${STYLE.footer}">${[...lines, links].filter(Boolean).join('<br>')}</p>`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}
