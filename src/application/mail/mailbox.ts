import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import { type Actor, requireAdmin } from '../actor.js';
import { read } from '../inputs.js';

/** A written mail as a list shows it. */
export interface MailSummary {
  id: string;
  date: Date | null;
  to: string;
  subject: string;
  /** The kind of mail its List-Id names (`notifications`, `digest`, `messages`); null for a mail of no list. */
  list: string | null;
}

/** A written mail whole: its headers in order, and both parts. */
export interface MailDetail extends MailSummary {
  headers: { name: string; value: string }[];
  text: string;
  html: string;
}

/** What is shown of a mail that carries a private message (contract §24): not what it says, nor its conversation. */
export const PRIVATE_MAIL = '(a private message: forumctl does not show it)';

/** Whether a mail carries a private message (contract §24), which forumctl reads nothing of: it reads no conversation. */
const isPrivate = (mail: MailSummary) => mail.list === 'messages';

/** A mail in the list as an administrator may see it: a private message's keeps its recipient and date only. */
const summaryShown = (mail: MailSummary): MailSummary => (isPrivate(mail) ? { ...mail, subject: PRIVATE_MAIL } : mail);

/** Headers of a private message's mail that say nothing of it. */
const NEUTRAL_HEADERS = new Set(['date', 'to', 'from', 'message-id', 'list-id']);

/** A mail whole as an administrator may see it: a private message's without what it says, nor its thread. */
const detailShown = (mail: MailDetail): MailDetail =>
  isPrivate(mail)
    ? {
        ...mail,
        subject: PRIVATE_MAIL,
        headers: mail.headers.filter((h) => NEUTRAL_HEADERS.has(h.name.toLowerCase())),
        text: PRIVATE_MAIL,
        html: '',
      }
    : mail;

/**
 * The mail written to the data folder when there is no SMTP server (contract §17): what `forumctl mail list`
 * and `mail show` read, so that a new forum's first sign-up can be confirmed without any mail server.
 */
export interface Mailbox {
  /** Where it is, to say so. */
  readonly folder: string;
  /** Newest first. */
  list(limit: number): Promise<MailSummary[]>;
  show(id: string): Promise<MailDetail | null>;
}
export const Mailbox = Symbol.for('Mailbox');

const MailId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'is not a mail id (`mail list` shows them)');

/** The written mail, newest first (administrators: mail holds live links). */
export class ListMail {
  constructor(private readonly mailbox: Mailbox) {}

  async execute(actor: Actor, limit: number): Promise<{ folder: string; mails: MailSummary[] }> {
    requireAdmin(actor);
    return { folder: this.mailbox.folder, mails: (await this.mailbox.list(limit)).map(summaryShown) };
  }
}

/** One written mail: headers and both parts (administrators). */
export class ShowMail {
  constructor(private readonly mailbox: Mailbox) {}

  async execute(actor: Actor, rawId: unknown): Promise<MailDetail> {
    requireAdmin(actor);
    const id = read(MailId, rawId, 'id');
    const mail = await this.mailbox.show(id);
    if (!mail) throw new NotFound(`mail ${id}`);
    return detailShown(mail);
  }
}
