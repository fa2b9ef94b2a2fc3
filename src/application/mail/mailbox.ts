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
}

/** A written mail whole: its headers in order, and both parts. */
export interface MailDetail extends MailSummary {
  headers: { name: string; value: string }[];
  text: string;
  html: string;
}

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
    return { folder: this.mailbox.folder, mails: await this.mailbox.list(limit) };
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
    return mail;
  }
}
