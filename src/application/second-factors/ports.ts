/** What the second factors' use cases need from outside (contract §25): where they are kept, and TOTP's arithmetic. */

/** A person's authenticator, as kept: its secret sealed (SecretBox), whether it is on, the last time step accepted. */
export interface StoredTotp {
  sealedSecret: string;
  /** Null while enrolment waits for its first code: not a second factor yet. */
  confirmedAt: Date | null;
  lastStep: number | null;
}

export interface SecondFactorStore {
  /** The account's authenticator, on or waiting to be confirmed; null when it has none. */
  totpOf(userId: number): Promise<StoredTotp | null>;
  /** Whether the account has a second factor that is on (an authenticator confirmed, later passkeys too). */
  isOn(userId: number): Promise<boolean>;
  /** Starts enrolment with a new secret, replacing an unconfirmed one (never one that is on). */
  startTotp(userId: number, sealedSecret: string, at: Date): Promise<void>;
  /** Turns the waiting authenticator on, its first code's step accepted; false when none was waiting. */
  confirmTotp(userId: number, step: number, at: Date): Promise<boolean>;
  /**
   * Accepts a code of time step `step` for an authenticator that is on, unless that step or a later one was
   * accepted already (one statement: two requests with one code cannot both pass). False when refused.
   */
  acceptStep(userId: number, step: number): Promise<boolean>;
  /** Replaces the account's recovery codes by these digests. */
  replaceRecoveryCodes(userId: number, digests: readonly string[], at: Date): Promise<void>;
  /** Uses up the unused recovery code of this digest; the number still unused, or null when there was none such. */
  useRecoveryCode(userId: number, digest: string, at: Date): Promise<number | null>;
  unusedRecoveryCodes(userId: number): Promise<number>;
  /** Removes the authenticator and the recovery codes; whether there was an authenticator. */
  removeAll(userId: number): Promise<boolean>;
}
export const SecondFactorStore = Symbol.for('SecondFactorStore');

/**
 * The codes' arithmetic and randomness: RFC 6238 with the domain's parameters (TOTP) for authenticators, and
 * recovery codes (ten random letters and digits, as readCode reads them).
 */
export interface SecondFactorCodes {
  /** A new random TOTP secret (160 bits), in base32 as apps take it. */
  newTotpSecret(): string;
  /** The `otpauth://totp/…` URI a QR code carries. */
  totpUri(secret: string, account: string, issuer: string): string;
  /** The time step whose code `code` is, within the window around `at`; null when it is none of them. */
  totpStep(secret: string, code: string, at: Date): number | null;
  /** A new recovery code: ten lower-case letters and digits (about 50 bits). */
  newRecoveryCode(): string;
}
export const SecondFactorCodes = Symbol.for('SecondFactorCodes');

/** A browser that passed its first factor and is asked for its second (contract §25), kept by its secret's digest. */
export interface PendingSignInStore {
  add(pending: { digest: string; userId: number; continueTo: string; expiresAt: Date }): Promise<void>;
  /** The live pending sign-in of this digest. */
  find(digest: string, now: Date): Promise<{ userId: number; continueTo: string } | null>;
  remove(digest: string): Promise<void>;
  /** Deletes those that expired; how many. */
  purge(now: Date): Promise<number>;
}
export const PendingSignInStore = Symbol.for('PendingSignInStore');
