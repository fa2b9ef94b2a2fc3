import { z } from 'zod';
import { DomainError, type ErrorCode } from '../../domain/shared/errors.js';
import { TOPIC_CLOSED } from '../../domain/topics/topic.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireAdmin } from '../actor.js';
import { read } from '../inputs.js';
import type { Clock, MailTokenKeys, UnitOfWork } from '../ports.js';
import type { CreateReply } from '../replies/create-reply.js';
import type { ConversationStore } from '../conversations/ports.js';
import type { ReplyToConversation } from '../conversations/write-conversations.js';
import type { Unsubscribe } from './unsubscribe.js';
import {
  INBOUND_MAIL_MAX_BYTES,
  type InboundMailEntry,
  type InboundMailLog,
  type InboundMailView,
  type InboundOutcome,
  type InboundVia,
  type MailReader,
  type ReadMail,
} from './inbound.js';
import { replyText } from './reply-text.js';

/** A mail as it arrives. */
export interface IncomingMail {
  via: InboundVia;
  /** The raw message; null when it was not read because it is larger than INBOUND_MAIL_MAX_BYTES. */
  raw: Buffer | null;
  /** Its size in bytes (as counted, or as declared when it was not read). */
  size: number;
  /** The SMTP envelope, when it came by SMTP: `MAIL FROM` (null for the null sender `<>`) and the `RCPT TO`s. */
  envelope?: { mailFrom: string | null; recipients: string[] };
}

/** What became of a mail. */
export interface Received {
  outcome: InboundOutcome;
  /** Short words, for a refusal. */
  reason: string | null;
  replyId: number | null;
  /**
   * The refusal may not hold later (too many replies for now): an SMTP sender is asked to try again (4xx)
   * rather than told no (5xx).
   */
  temporary: boolean;
  /** The same mail was posted before (a retry): an SMTP sender is told it was delivered. */
  duplicate: boolean;
}

/** What a key in a recipient address names. */
type Addressed = { kind: 'reply'; userId: number; topicId: number } | { kind: 'unsubscribe'; key: string };

/** Thrown inside the reply's transaction when the same Message-ID was posted meanwhile: rolls the reply back. */
class AlreadyPosted extends Error {}

/** Refusals of reply create, in short words (the record's `reason`); a rule's own message when it has one. */
const REFUSALS: Record<ErrorCode, (error: DomainError) => string> = {
  Unauthenticated: () => 'unknown user',
  Forbidden: () => 'not allowed to reply',
  NotFound: () => 'topic not found',
  InvalidInput: (error) => error.message,
  RuleViolated: (error) => (error.message === TOPIC_CLOSED ? 'topic closed' : error.message),
  TooManyRequests: () => 'too many replies',
  Unavailable: () => 'unavailable, try again later',
};

const MAX_REASON = 200;

/**
 * Reply by e-mail (contract §17): a mail to a reply address becomes the key's user's reply to the key's topic,
 * through reply create, so that every rule of replying holds (permission, closed topic, blocked user, limits)
 * and everything that follows a reply follows (notifications, counters, search, webhooks). A mail to an
 * unsubscribe address (List-Unsubscribe's mailto) leaves that kind of mail. Whatever comes, nothing throws for
 * it: every mail is recorded with its outcome, and a refusal says why in a few words.
 *
 * In order: the size; the message must read; machines' mail (auto-replies, bounces) is never posted (a vacation
 * notice must not become a reply, nor answer one: RFC 3834 §2); a Message-ID posted once is not posted again;
 * a recipient must carry a key of ours; a reply's sender must be the key's user, by their current address;
 * then reply create, as that user, with the text stripped of quotes and signature. The reply and its record are
 * written in one transaction.
 */
export class ReceiveMail {
  private readonly address: RegExp | null;

  constructor(
    /** REPLY_BY_EMAIL (`reply+%{key}@forum.example`); null: reply by e-mail is off and every mail is refused. */
    replyAddress: string | null,
    private readonly reader: MailReader,
    private readonly keys: MailTokenKeys,
    private readonly users: UserRepository,
    private readonly createReply: CreateReply,
    private readonly conversations: ConversationStore,
    private readonly replyToConversation: ReplyToConversation,
    private readonly unsubscribe: Unsubscribe,
    private readonly log: InboundMailLog,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {
    this.address = replyAddress === null ? null : addressPattern(replyAddress);
  }

  /** Whether a mail to this address could be taken (the SMTP listener refuses other recipients at RCPT TO). */
  accepts(address: string): boolean {
    return this.addressed(address) !== null;
  }

  async execute(mail: IncomingMail): Promise<Received> {
    const entry: InboundMailEntry = {
      receivedAt: this.clock.now(),
      via: mail.via,
      messageId: null,
      sender: mail.envelope?.mailFrom ?? null,
      userId: null,
      topicId: null,
      outcome: 'refused',
      reason: null,
      replyId: null,
      size: mail.size,
    };
    if (mail.raw === null || mail.size > INBOUND_MAIL_MAX_BYTES) return this.refuse(entry, 'too large');
    if (this.address === null) return this.refuse(entry, 'reply by e-mail is off');
    const message = await this.reader.read(mail.raw);
    if (message === null) return this.refuse(entry, 'malformed');
    entry.messageId = message.messageId === null ? null : message.messageId.slice(0, 998);
    entry.sender = (message.from ?? entry.sender)?.slice(0, 320) ?? null;

    if (isAutomatic(message, mail.envelope)) return this.refuse(entry, 'auto-reply');
    if (entry.messageId !== null && (await this.log.wasPosted(entry.messageId))) {
      return this.refuse(entry, 'duplicate', { duplicate: true });
    }
    const addressed = this.addressedAmong([...(mail.envelope?.recipients ?? []), ...message.recipients]);
    if (addressed === null) return this.refuse(entry, 'unknown key');
    if (addressed.kind === 'unsubscribe') {
      const left = await this.unsubscribe.execute(addressed.key);
      if (left === null) return this.refuse(entry, 'unknown key');
      entry.userId = left.userId;
      return this.record({ ...entry, outcome: 'unsubscribed' });
    }

    entry.userId = addressed.userId;
    // A key names a topic, or a conversation (contract §24: a topic in no node), answered as each is answered; the log
    // of received mail keeps no conversation's id (nothing of one in any log).
    const conversation = (await this.conversations.place(addressed.topicId, addressed.userId)) !== null;
    entry.topicId = conversation ? null : addressed.topicId;
    const user = await this.users.findById(addressed.userId);
    if (user === null || user.isAnonymized() || !user.isActive()) return this.refuse(entry, 'unknown user');
    if (message.from === null || message.from.toLowerCase() !== user.email.toLowerCase()) {
      return this.refuse(entry, "sender is not the key's user");
    }
    const body = replyText(message.text ?? message.htmlText ?? '');
    if (body.trim() === '') return this.refuse(entry, 'empty');

    const actor = { id: user.id, login: user.login, role: user.role };
    try {
      const replyId = await this.uow.run(async () => {
        const replyId = conversation
          ? await this.replyToConversation.execute(actor, { id: addressed.topicId, body })
          : (await this.createReply.execute(actor, { topicId: addressed.topicId, body })).reply.id;
        // Recorded with its reply, in its transaction: never a reply without its record, nor two for one Message-ID.
        const recorded = await this.log.record({ ...entry, outcome: 'posted', replyId });
        if (!recorded) throw new AlreadyPosted();
        return replyId;
      });
      return { outcome: 'posted', reason: null, replyId, temporary: false, duplicate: false };
    } catch (error) {
      if (error instanceof AlreadyPosted) return this.refuse(entry, 'duplicate', { duplicate: true });
      if (!(error instanceof DomainError)) throw error;
      return this.refuse(entry, REFUSALS[error.code](error), {
        temporary: error.code === 'TooManyRequests' || error.code === 'Unavailable',
      });
    }
  }

  private async refuse(
    entry: InboundMailEntry,
    reason: string,
    how: { temporary?: boolean; duplicate?: boolean } = {},
  ): Promise<Received> {
    await this.log.record({ ...entry, outcome: 'refused', reason: reason.slice(0, MAX_REASON) });
    return {
      outcome: 'refused',
      reason: reason.slice(0, MAX_REASON),
      replyId: null,
      temporary: how.temporary ?? false,
      duplicate: how.duplicate ?? false,
    };
  }

  private async record(entry: InboundMailEntry): Promise<Received> {
    await this.log.record(entry);
    return { outcome: entry.outcome, reason: entry.reason, replyId: entry.replyId, temporary: false, duplicate: false };
  }

  /** The first recipient that carries a key of ours: a reply key first (a reply also Cc'd elsewhere still posts). */
  private addressedAmong(recipients: readonly string[]): Addressed | null {
    const found = recipients.map((recipient) => this.addressed(recipient)).filter((a): a is Addressed => a !== null);
    return found.find((a) => a.kind === 'reply') ?? found[0] ?? null;
  }

  private addressed(address: string): Addressed | null {
    const key = this.address?.exec(address.trim())?.[1]?.toLowerCase();
    if (key === undefined) return null;
    const reply = this.keys.readReplyKey(key);
    if (reply) return { kind: 'reply', ...reply };
    return this.keys.readUnsubscribeKey(key) ? { kind: 'unsubscribe', key } : null;
  }
}

/**
 * REPLY_BY_EMAIL as a pattern that finds the key in an address: what is around `%{key}` literally, compared
 * without regard to case (the local part's case may be folded on the way: the keys are lower case).
 */
function addressPattern(replyAddress: string): RegExp {
  const [before, after] = replyAddress.split('%{key}') as [string, string];
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${literal(before)}([a-z0-9-]{1,80})${literal(after)}$`, 'i');
}

/**
 * A machine's mail, never posted: RFC 3834's `Auto-Submitted` other than `no`; the null return path of bounces
 * (RFC 5321 §4.5.5: `Return-Path: <>`, or `MAIL FROM:<>`); `Precedence: bulk|junk|list` (what vacation responders
 * and mailing lists send); a delivery or disposition report (RFC 3464, RFC 8098); `X-Autoreply`/`X-Autorespond`
 * (older responders).
 */
function isAutomatic(read: ReadMail, envelope: IncomingMail['envelope']): boolean {
  if (read.autoSubmitted !== null && read.autoSubmitted !== 'no') return true;
  if (read.nullReturnPath || (envelope !== undefined && envelope.mailFrom === null)) return true;
  if (read.precedence !== null && ['bulk', 'junk', 'list'].includes(read.precedence)) return true;
  return read.report || read.autoReplyHeader;
}

/** How many recorded mails `mail inbound` lists at most. */
const Limit = z.coerce.number().int().min(1).max(1000);

/** The received mails, newest first (administrators: they name who wrote and what became of it). */
export class ListInboundMail {
  constructor(private readonly log: InboundMailLog) {}

  async execute(actor: Actor, rawLimit: unknown): Promise<InboundMailView[]> {
    requireAdmin(actor);
    return this.log.list(read(Limit, rawLimit, 'limit'));
  }
}
