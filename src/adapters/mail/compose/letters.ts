import type { DigestEntry, MessagePost, NoticePost } from '../../../application/mail/mail-composer.js';
import type { DigestPeriod } from '../../../application/mail/digests.js';
import type { MailListItem, Template } from './layout.js';
import { DEFAULT_MAIL_PREFERENCES, type EmailNotifications } from '../../../domain/users/user.js';

/**
 * Each mail's letter: which paragraphs it has, what its button does, what its footer offers. What they say is in
 * the words of the recipient's language (presentation/words, `mail`); the layout draws them (layout.tsx).
 */

export type { DigestEntry, NoticePost };

type Link = { link: string; hours: number };
type Notice = { forgotLink: string };

/** A mail whose button is a link that works for some hours: one letter, in the words under `words`. */
const linkMail =
  (words: 'verify' | 'reset' | 'setPassword' | 'emailChange'): Template<Link> =>
  (mail, { site, login, link, hours }) => ({
    subject: mail[words].subject(site),
    paragraphs: [mail[words].intro(site, login)],
    action: { label: mail[words].button, url: link },
    after: [mail[words].after(hours)],
  });

/** Sign-up: confirm the address (contract §16b). The link opens a page whose button spends the token. */
export const verifyMail = linkMail('verify');

/** Forgot password: a link to choose a new one (contract §16b). */
export const resetMail = linkMail('reset');

/** The same link for an account without a password (made with another provider, §25): it chooses its first. */
export const setPasswordMail = linkMail('setPassword');

/** A new address, to be confirmed before it takes effect (contract §16b); sent to the new address. */
export const emailChangeMail = linkMail('emailChange');

/** The address changed once the new one was confirmed (contract §16b): a notice to the previous address. */
export const emailChangedMail: Template<Notice> = ({ emailChanged: w }, { site, login, forgotLink }) => ({
  subject: w.subject(site),
  paragraphs: [w.changed(site, login), w.ifNotYou],
  action: { label: w.button, url: forgotLink },
});

/** The password was changed or reset (contract §16b): a notice to the owner. */
export const passwordChangedMail: Template<Notice> = ({ passwordChanged: w }, { site, login, forgotLink }) => ({
  subject: w.subject(site),
  paragraphs: [w.changed(site, login), w.ifNotYou],
  action: { label: w.button, url: forgotLink },
});

/**
 * Someone signed up with an address that already has an account (contract §16b): its owner is told, and the
 * sign-up itself answered as any other, so that nobody learns which addresses are known.
 */
export const signUpRepeatedMail: Template<Notice> = ({ signUpRepeated: w }, { site, login, forgotLink }) => ({
  subject: w.subject(site),
  paragraphs: [w.tried(site, login), w.ifYou],
  action: { label: w.button, url: forgotLink },
  after: [w.ifNotYou],
});

/** An administrator let a pending account in (REGISTRATION=approval, contract §16b). */
export const approvedMail: Template<object> = ({ approved: w }, { site, siteUrl, login }) => ({
  subject: w.subject(site),
  paragraphs: [w.approved(site, login)],
  action: { label: w.button(site), url: siteUrl },
});

export interface NoticeFacts {
  title: string;
  topicUrl: string;
  /** Their HTML made fit for mail (post-html.ts). */
  posts: NoticePost[];
  /** Answering this mail posts a reply (REPLY_BY_EMAIL is on). */
  replyByMail: boolean;
  /** The recipient's preference, for the footer's why. */
  preference: EmailNotifications;
  unsubscribeUrl: string;
  settingsUrl: string;
}

/**
 * Notification mail (contract §17): what a topic's burst of replies and mentions said, whole, with a link back. The
 * subject is the topic's, the same for every mail of the topic, so that clients that group by subject agree with
 * the threading headers.
 */
export const notificationsMail: Template<NoticeFacts> = (
  { notifications: w },
  { site, title, topicUrl, posts, replyByMail, preference, unsubscribeUrl, settingsUrl },
) => {
  const [only] = posts;
  const lead =
    posts.length > 1
      ? w.newPosts(posts.length, title)
      : only!.kind === 'mention'
        ? w.mentionedIn(only!.login, title)
        : w.repliedIn(only!.login, title);
  return {
    subject: `[${site}] ${title}`,
    greeting: false,
    paragraphs: [lead],
    posts: posts.map((post) => ({
      heading: posts.length === 1 ? '' : post.kind === 'mention' ? w.mentioned(post.login) : w.replied(post.login),
      html: post.html,
      text: post.text,
    })),
    action: { label: w.button, url: topicUrl, copy: false },
    footer: {
      lines: [
        replyByMail ? w.replyByMail : w.noReplies,
        w.why(site, preference, preference === DEFAULT_MAIL_PREFERENCES.emailNotifications),
      ],
      links: [
        { label: w.unsubscribe, url: unsubscribeUrl },
        { label: w.settings, url: settingsUrl },
      ],
    },
  };
};

export interface MessageFacts {
  title: string;
  conversationUrl: string;
  /** Their HTML made fit for mail (post-html.ts). */
  posts: MessagePost[];
  /** Answering this mail replies in the conversation (REPLY_BY_EMAIL is on). */
  replyByMail: boolean;
  unsubscribeUrl: string;
  settingsUrl: string;
}

/**
 * A conversation's new messages (contract §24): whole, with a link back. The subject is the conversation's, the same
 * for each of its mails (threaded with them).
 */
export const messagesMail: Template<MessageFacts> = (
  { messages: w },
  { site, title, conversationUrl, posts, replyByMail, unsubscribeUrl, settingsUrl },
) => ({
  subject: `[${site}] ${w.subject(title)}`,
  greeting: false,
  paragraphs: [posts.length > 1 ? w.newMessages(posts.length, title) : w.wrote(posts[0]!.login, title)],
  posts: posts.map((post) => ({ heading: posts.length === 1 ? '' : w.from(post.login), html: post.html, text: post.text })),
  action: { label: w.button, url: conversationUrl, copy: false },
  footer: {
    lines: [replyByMail ? w.replyByMail : w.noReplies, w.why(site)],
    links: [
      { label: w.unsubscribe, url: unsubscribeUrl },
      { label: w.settings, url: settingsUrl },
    ],
  },
});

export interface DigestFacts {
  period: DigestPeriod;
  topics: DigestEntry[];
  /** The one-click link that ends these digests (the List-Unsubscribe one), and the page of mail settings. */
  unsubscribeUrl: string;
  settingsUrl: string;
}

/** Where an excerpt is cut: about two lines of a phone's width. East Asian characters count twice (they are wide). */
const EXCERPT_WIDTH = 200;

/**
 * The start of a topic's text for a digest: on one line, cut at about EXCERPT_WIDTH at a space when one is near
 * (Latin text), anywhere otherwise (Chinese has none), with an ellipsis when cut.
 */
export function excerpt(text: string, width = EXCERPT_WIDTH): string {
  const line = text.replace(/\s+/g, ' ').trim();
  let used = 0;
  let end = 0;
  for (const character of line) {
    used += /[\u2e80-\ua4cf\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/.test(character) ? 2 : 1;
    if (used > width) break;
    end += character.length;
  }
  if (end >= line.length) return line;
  const space = line.lastIndexOf(' ', end);
  const cut = space > end - 30 && space > 0 ? space : end;
  return `${line.slice(0, cut).trimEnd()}…`;
}

/** The digest (contract §17): what was started while the reader was away, most active first. */
export const digestMail: Template<DigestFacts> = (
  { digest: w },
  { site, siteUrl, period, topics, unsubscribeUrl, settingsUrl },
) => ({
  subject: w.subject(period, site, topics[0]!.title, topics.length),
  paragraphs: [w.intro(topics.length, site)],
  items: topics.map((topic): MailListItem => ({
    title: topic.title,
    url: topic.url,
    about: w.about(topic),
    excerpt: excerpt(topic.text),
  })),
  action: { label: w.button(site), url: siteUrl, copy: false },
  after: [w.why(period, site, period === DEFAULT_MAIL_PREFERENCES.emailDigest)],
  footer: {
    links: [
      { label: w.unsubscribe, url: unsubscribeUrl },
      { label: w.settings, url: settingsUrl },
    ],
  },
});
