import type { MailTokenPurpose } from '../../domain/events.js';
import type { DomainEvents } from '../events.js';
import type { MailTokenKeys } from '../ports.js';
import { type AccountTokenRow, type AccountTokenStore, MAIL_TOKEN_SECONDS } from './account-tokens.js';

/** A token as it may arrive from a link: base64url, of the length MailTokenKeys makes (anything else is no token). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The links account mails carry: a token row made in the unit of work of the change, and the event whose mail
 * writes its link (the mail consumer derives the token from the row's id). Taking a token spends it.
 */
export class MailLinks {
  constructor(
    private readonly store: AccountTokenStore,
    private readonly keys: MailTokenKeys,
    private readonly events: DomainEvents,
  ) {}

  /** Makes a token for the user and has its link mailed. `email`: the new address, for `email_change`. */
  async send(userId: number, purpose: MailTokenPurpose, now: Date, email: string | null = null): Promise<void> {
    const id = await this.make(userId, purpose, now, email);
    await this.events.record({ type: 'account.token_issued', userId, tokenId: id, purpose });
  }

  /** Makes a token for the user and returns it, mailing nothing (forumctl users reset-link prints it). */
  async make(userId: number, purpose: MailTokenPurpose, now: Date, email: string | null = null): Promise<string> {
    const id = this.keys.newId();
    await this.store.add({
      id,
      userId,
      purpose,
      email,
      digest: this.keys.digest(this.keys.tokenFor(id)),
      expiresAt: new Date(now.getTime() + MAIL_TOKEN_SECONDS[purpose] * 1000),
      createdAt: now,
    });
    return id;
  }

  /** The token a link carries for a row this made. */
  tokenFor(id: string): string {
    return this.keys.tokenFor(id);
  }

  /** Spends a live token of one of these purposes; null when it is unknown, used, expired or for another purpose. */
  take(token: string, purposes: readonly MailTokenPurpose[], now: Date): Promise<AccountTokenRow | null> {
    if (!TOKEN_SHAPE.test(token)) return Promise.resolve(null);
    return this.store.take(this.keys.digest(token), purposes, now);
  }

  /** Spends every live token of the user for these purposes. */
  spendAll(userId: number, purposes: readonly MailTokenPurpose[], now: Date): Promise<void> {
    return this.store.spendAll(userId, purposes, now);
  }

  /** When the last token of this purpose was made for the user, if ever. */
  lastIssuedAt(userId: number, purpose: MailTokenPurpose): Promise<Date | null> {
    return this.store.lastIssuedAt(userId, purpose);
  }

  /** A token of one of these purposes that was spent already (its link opened again), or null. */
  spent(token: string, purposes: readonly MailTokenPurpose[]): Promise<AccountTokenRow | null> {
    if (!TOKEN_SHAPE.test(token)) return Promise.resolve(null);
    return this.store.spent(this.keys.digest(token), purposes);
  }

  /** What a live token is for, without spending it. */
  peek(token: string, purposes: readonly MailTokenPurpose[], now: Date): Promise<AccountTokenRow | null> {
    if (!TOKEN_SHAPE.test(token)) return Promise.resolve(null);
    return this.store.peek(this.keys.digest(token), purposes, now);
  }
}
