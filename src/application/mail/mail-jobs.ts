import { z } from 'zod';
import { type DomainEvent, MAIL_TOKEN_PURPOSES } from '../../domain/events.js';
import type { InTransactionConsumer } from '../events.js';

/**
 * A mail to send, as the job queue keeps it (contract §17): kinds and ids only. Never a token, a link or a
 * password: the sender loads what the mail says when it sends it, and derives a link's token from the token row's
 * id under the server's key (MailTokenKeys). The one address a job carries is the previous one of an address
 * change, which nothing else keeps.
 */
export const MailJob = z.discriminatedUnion('kind', [
  z.object({ kind: z.enum(MAIL_TOKEN_PURPOSES), userId: z.number().int().positive(), tokenId: z.string().min(1).max(32) }),
  z.object({ kind: z.literal('sign_up_repeated'), userId: z.number().int().positive() }),
  z.object({ kind: z.literal('password_changed'), userId: z.number().int().positive() }),
  z.object({ kind: z.literal('email_changed'), userId: z.number().int().positive(), previousEmail: z.string().min(1).max(255) }),
  z.object({ kind: z.literal('approved'), userId: z.number().int().positive() }),
  // Moved onto the queue once its delay is over (notification-mail-queue.ts), not from here.
  z.object({ kind: z.literal('notifications'), userId: z.number().int().positive(), topicId: z.number().int().positive() }),
  // A conversation's new messages (contract §24), those written since `since`: moved onto the queue like the above.
  z.object({
    kind: z.literal('messages'),
    userId: z.number().int().positive(),
    topicId: z.number().int().positive(),
    since: z.iso.datetime({ offset: true }),
  }),

  // A digest (digests.ts): the topics are chosen when it is sent, among those started since `since`.
  z.object({ kind: z.literal('digest'), userId: z.number().int().positive(), since: z.iso.datetime({ offset: true }) }),
]);
export type MailJob = z.infer<typeof MailJob>;
export type MailKind = MailJob['kind'];

/** The mail a domain event causes, if any: the one place that says which fact sends which mail. */
export function mailJobFor(event: DomainEvent): MailJob | null {
  switch (event.type) {
    case 'account.token_issued':
      return { kind: event.purpose, userId: event.userId, tokenId: event.tokenId };
    case 'account.sign_up_repeated':
    case 'account.password_changed':
    case 'account.approved':
      return { kind: MAIL_KIND_OF[event.type], userId: event.userId };
    case 'account.email_changed':
      return { kind: 'email_changed', userId: event.userId, previousEmail: event.previousEmail };
    default:
      return null;
  }
}

const MAIL_KIND_OF = {
  'account.sign_up_repeated': 'sign_up_repeated',
  'account.password_changed': 'password_changed',
  'account.approved': 'approved',
} as const;

/**
 * Where mail jobs are queued: in the unit of work of the change that causes them (the job queue the webhooks use),
 * so that a rolled-back change sends nothing and a committed one never loses its mail.
 */
export interface MailQueue {
  queue(job: MailJob): Promise<void>;
}
export const MailQueue = Symbol.for('MailQueue');

/** Turns each account event into its mail job, in the transaction of the change (../shared/design/events.md). */
export class MailProducer implements InTransactionConsumer {
  constructor(private readonly queue: MailQueue) {}

  async handle(event: DomainEvent): Promise<void> {
    const job = mailJobFor(event);
    if (job) await this.queue.queue(job);
  }
}
