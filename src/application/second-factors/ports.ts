import type { PasskeySummary } from '../../domain/users/passkey.js';

/**
 * What the second factors' use cases need from outside (contract §25): where they are kept, TOTP's arithmetic, and
 * the WebAuthn ceremonies of passkeys.
 */

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
  /** Whether the account has a second factor that is on: an authenticator confirmed, or a passkey. */
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
  /** Removes every second factor (the authenticator, the passkeys) and the recovery codes: what there was. */
  removeAll(userId: number): Promise<RemovedSecondFactors>;
}
export const SecondFactorStore = Symbol.for('SecondFactorStore');

/** What removing an account's second factors removed: whether an authenticator was on, how many passkeys. */
export interface RemovedSecondFactors {
  totp: boolean;
  passkeys: number;
}

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
  /** Deletes the account's pending sign-ins (signing out everywhere): no code finishes them any more. */
  removeAllFor(userId: number): Promise<number>;
  /** Deletes those that expired; how many. */
  purge(now: Date): Promise<number>;
}
export const PendingSignInStore = Symbol.for('PendingSignInStore');

/** A passkey as kept: its credential (id, public key, transports as the browser gave them) and its signature counter. */
export interface StoredPasskey extends PasskeySummary {
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  signCount: number;
  transports: string[];
}

/** A credential the authenticator just made, checked by its registration ceremony. */
export interface NewCredential {
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
}

export interface PasskeyStore {
  /** The account's passkeys, oldest first. */
  listOf(userId: number): Promise<StoredPasskey[]>;
  /** The account's passkey of this credential id; null when the account has none such (another's is none). */
  find(userId: number, credentialId: string): Promise<StoredPasskey | null>;
  /** Keeps a new passkey; false when that credential is registered already (to any account). */
  add(userId: number, name: string, credential: NewCredential, at: Date): Promise<boolean>;
  /**
   * Records a use: the authenticator's new counter and when. False when another request used a counter this high
   * meanwhile (a cloned authenticator, or one assertion sent twice); a counter of 0 is an authenticator without one.
   */
  used(passkeyId: number, signCount: number, at: Date): Promise<boolean>;
  /** Removes the account's passkey of this id; false when it has none such. */
  remove(userId: number, passkeyId: number): Promise<boolean>;
}
export const PasskeyStore = Symbol.for('PasskeyStore');

/**
 * The challenges of passkey ceremonies under way, each held by one browser (its `holder`: the digest of its session
 * or pending sign-in, with the ceremony's kind) for one account: short-lived, and spent by the answer that takes it.
 */
export interface CeremonyChallengeStore {
  /** Keeps a challenge, replacing the holder's earlier one (and forgetting those expired by `now`). */
  put(holder: string, userId: number, challenge: string, expiresAt: Date, now: Date): Promise<void>;
  /** The holder's live challenge for this account, removed (used once); null when there is none. */
  take(holder: string, userId: number, now: Date): Promise<string | null>;
}
export const CeremonyChallengeStore = Symbol.for('CeremonyChallengeStore');

/** What a WebAuthn ceremony asks of a browser: the options `navigator.credentials` takes, as JSON, and their challenge. */
export interface CeremonyOptions {
  options: Record<string, unknown>;
  challenge: string;
}

/**
 * WebAuthn's ceremonies for this relying party (its id and origin: the service's public URL): the options a browser
 * needs, and the checks of what the authenticator answered (attestation, assertion), which only a WebAuthn library
 * does. A response that is not one, or does not verify, is null: never an exception.
 */
export interface PasskeyCeremonies {
  registrationOptions(user: { login: string }, exclude: readonly StoredPasskey[]): Promise<CeremonyOptions>;
  verifyRegistration(response: unknown, challenge: string): Promise<NewCredential | null>;
  authenticationOptions(allow: readonly StoredPasskey[]): Promise<CeremonyOptions>;
  /** The credential id an assertion names (to find the passkey it claims to be); null when it names none. */
  credentialIdOf(response: unknown): string | null;
  /** The authenticator's new counter when the assertion is this passkey's answer to this challenge. */
  verifyAuthentication(response: unknown, challenge: string, passkey: StoredPasskey): Promise<{ signCount: number } | null>;
}
export const PasskeyCeremonies = Symbol.for('PasskeyCeremonies');
