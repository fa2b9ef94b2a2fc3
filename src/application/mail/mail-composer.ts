import type { EmailNotifications, Locale } from '../../domain/users/user.js';
import type { DigestPeriod } from './digests.js';

/**
 * How a mail reads (its subject, its text part, its HTML part, in the recipient's language), apart from what it
 * says: DeliverMail decides what is sent and when, with what facts, links and tokens; a MailComposer (an adapter)
 * draws it.
 */

/** Who a mail is written to: the site (PUBLIC_URL's host and URL) and the account. */
export interface MailRecipient {
  site: string;
  siteUrl: string;
  login: string;
  /** The display name, or the login when there is none. */
  name: string;
}

/** One post a notification mail carries: a reply to the recipient's topic or one they follow, or a mention. */
export interface NoticePost {
  kind: 'reply' | 'mention';
  login: string;
  /** The post as the API renders it (`body_html`, sanitized), for the HTML part. */
  html: string;
  /** The post as written (Markdown), for the text part. */
  text: string;
}

/** One message a message mail carries (contract §24). */
export interface MessagePost {
  login: string;
  html: string;
  text: string;
}

/** A digest's topic, its link (TOPIC_URL) made. */
export interface DigestEntry {
  title: string;
  url: string;
  nodeName: string;
  /** The author's display name, or login. */
  author: string;
  repliesCount: number;
  likesCount: number;
  text: string;
}

/** What a mail says, by kind: the facts DeliverMail read and the links it made. */
export type MailContent =
  /**
   * A link to follow (sign-up, a forgotten password, a new address; `set_password` is a reset link for an account
   * without a password, which sets its first), valid for `hours`.
   */
  | { kind: 'verify' | 'reset' | 'set_password' | 'email_change'; link: string; hours: number }
  /** A notice about the account, with the way to a new password should it not be the owner's doing. */
  | { kind: 'sign_up_repeated' | 'password_changed' | 'email_changed'; forgotLink: string }
  /** An administrator let a pending account in. */
  | { kind: 'approved' }
  /** A topic's burst of replies and mentions (contract §17). */
  | {
      kind: 'notifications';
      title: string;
      topicUrl: string;
      posts: NoticePost[];
      /** Answering the mail posts a reply (REPLY_BY_EMAIL is on). */
      replyByMail: boolean;
      /** The recipient's preference, which the footer says why they are mailed by. */
      preference: EmailNotifications;
      unsubscribeUrl: string;
      settingsUrl: string;
    }
  /** A conversation's new messages (contract §24). */
  | {
      kind: 'messages';
      title: string;
      conversationUrl: string;
      posts: MessagePost[];
      /** Answering the mail replies in the conversation (REPLY_BY_EMAIL is on). */
      replyByMail: boolean;
      unsubscribeUrl: string;
      settingsUrl: string;
    }
  /** The topics started while the reader was away, most active first (contract §17). */
  | { kind: 'digest'; period: DigestPeriod; topics: DigestEntry[]; unsubscribeUrl: string; settingsUrl: string };

/** A mail as it is sent: its subject and both parts. */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

export interface MailComposer {
  compose(to: MailRecipient, content: MailContent, locale: Locale): ComposedMail;
}
export const MailComposer = Symbol.for('MailComposer');
