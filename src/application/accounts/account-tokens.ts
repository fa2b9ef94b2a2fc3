import type { MailTokenPurpose } from '../../domain/events.js';

/** How long a mail link stays good (contract §16b). */
export const MAIL_TOKEN_SECONDS: Record<MailTokenPurpose, number> = {
  verify: 24 * 3600,
  reset: 3600,
  email_change: 24 * 3600,
};

/** A mail token's row, as a use case sees it once the token is taken (or looked at). */
export interface AccountTokenRow {
  id: string;
  userId: number;
  purpose: MailTokenPurpose;
  /** The new address, for `email_change`. */
  email: string | null;
}

/**
 * The rows behind mail links: each keeps the digest of its token (derived from its random id under the server's
 * key, MailTokenKeys), never the token. Single use: `take` spends a token in the statement that finds it.
 */
export interface AccountTokenStore {
  add(row: AccountTokenRow & { digest: string; expiresAt: Date; createdAt: Date }): Promise<void>;
  /** The live (unused, unexpired) token with this digest and one of these purposes, spent now; null otherwise. */
  take(digest: string, purposes: readonly MailTokenPurpose[], now: Date): Promise<AccountTokenRow | null>;
  /** The same, without spending it (a page shows what the token is for before a person confirms). */
  peek(digest: string, purposes: readonly MailTokenPurpose[], now: Date): Promise<AccountTokenRow | null>;
  /** A token with this digest and one of these purposes that was spent (used), whenever; null otherwise. */
  spent(digest: string, purposes: readonly MailTokenPurpose[]): Promise<AccountTokenRow | null>;
  /** When the last token of this purpose was made for the user, if ever. */
  lastIssuedAt(userId: number, purpose: MailTokenPurpose): Promise<Date | null>;
  /** Spends every live token of the user for these purposes (a reset ends older reset links). */
  spendAll(userId: number, purposes: readonly MailTokenPurpose[], now: Date): Promise<void>;
}
export const AccountTokenStore = Symbol.for('AccountTokenStore');
