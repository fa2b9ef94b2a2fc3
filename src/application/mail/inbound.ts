/**
 * Reply by e-mail (contract §17): the ports of receiving mail. How a raw message is read (MailReader, mailparser
 * behind it) and where what became of each mail is recorded (InboundMailLog).
 */

/** How a mail came: the endpoint a mail provider's inbound webhook calls, or the built-in SMTP listener. */
export const INBOUND_VIAS = ['http', 'smtp'] as const;
export type InboundVia = (typeof INBOUND_VIAS)[number];

export const INBOUND_OUTCOMES = ['posted', 'unsubscribed', 'refused'] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/**
 * The largest message taken, attachments included: a reply is text, and 10 MiB leaves room for the pictures and
 * signatures clients add. The endpoint's body limit and the SMTP listener's SIZE are this.
 */
export const INBOUND_MAIL_MAX_BYTES = 10 * 1024 * 1024;

/** What the service needs of a raw RFC 5322 message. */
export interface ReadMail {
  /** The Message-ID without its angle brackets, or null when the message has none. */
  messageId: string | null;
  /** The first From address, as written (no display name), or null. */
  from: string | null;
  /**
   * Every address the message was for, as far as the message says: To, Cc, Delivered-To, X-Original-To (where a
   * forwarding provider keeps the address it was sent to). The SMTP envelope is added by the use case.
   */
  recipients: string[];
  subject: string;
  /** The text/plain part, or null when there is none. */
  text: string | null;
  /** The text/html part, or null. */
  html: string | null;
  /**
   * The HTML part as the text a reader sees, with the quoted message that clients mark in HTML (Gmail's
   * `gmail_quote`, Apple Mail's `blockquote type=cite`, Outlook's `divRplyFwdMsg` and its border-top separator)
   * already cut off; null without an HTML part. Used when there is no text part.
   */
  htmlText: string | null;
  /** RFC 3834 `Auto-Submitted`, lower case, or null. */
  autoSubmitted: string | null;
  /** `Precedence`, lower case, or null. */
  precedence: string | null;
  /** `Return-Path: <>` (the null sender of bounces, RFC 5321 §4.5.5), as the final server wrote it. */
  nullReturnPath: boolean;
  /** Other marks of a machine's answer: `X-Autoreply`/`X-Autorespond`, `X-Auto-Response-Suppress: All` alone does not count. */
  autoReplyHeader: boolean;
  /** A delivery or disposition report (`multipart/report`, `message/delivery-status`), i.e. a bounce. */
  report: boolean;
  /** The size in bytes of each attachment. */
  attachmentSizes: number[];
}

/** Reads a raw message; null when it cannot be read as one (never throws for bad input). */
export interface MailReader {
  read(raw: Buffer): Promise<ReadMail | null>;
}
export const MailReader = Symbol.for('MailReader');

/** One received mail, as recorded. Never its body. */
export interface InboundMailEntry {
  receivedAt: Date;
  via: InboundVia;
  messageId: string | null;
  sender: string | null;
  userId: number | null;
  topicId: number | null;
  outcome: InboundOutcome;
  /** Short words, for a refusal only. */
  reason: string | null;
  replyId: number | null;
  size: number;
}

/** A recorded mail as `forumctl mail inbound` lists it. */
export interface InboundMailView extends InboundMailEntry {
  id: number;
  /** The login of the key's user, when there is one. */
  login: string | null;
}

export interface InboundMailLog {
  /**
   * Records a mail. A posted mail whose Message-ID is already recorded as posted is not recorded and the answer
   * is false (inside the transaction of its reply: the caller rolls the reply back); anything else is true.
   */
  record(entry: InboundMailEntry): Promise<boolean>;
  /** Whether a mail with this Message-ID was posted already. */
  wasPosted(messageId: string): Promise<boolean>;
  /** Newest first. */
  list(limit: number): Promise<InboundMailView[]>;
}
export const InboundMailLog = Symbol.for('InboundMailLog');
