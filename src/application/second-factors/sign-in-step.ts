import { PASSKEY_CEREMONY_SECONDS } from '../../domain/users/passkey.js';
import type { ActingUser } from '../actor.js';
import type { OpenWebSession } from '../oauth/web-sessions.js';
import type { Clock, SecretGenerator } from '../ports.js';
import type { CheckSecondFactor } from './check-second-factor.js';
import { ceremonyHolder, parsedCredential } from './passkeys.js';
import type { CeremonyChallengeStore, PasskeyCeremonies, PasskeyStore, PendingSignInStore } from './ports.js';

/** How long a browser that passed its first factor has to type its code. */
export const PENDING_SIGN_IN_SECONDS = 600;

/** A browser signed in: its session's secret (the cookie) and its user. */
export interface OpenedSession {
  session: string;
  user: ActingUser;
}

/**
 * After a first factor proved who a person is (a password; later another provider): a browser session, or, for an
 * account with a second factor (contract §25), a pending sign-in that asks for it. The pending sign-in is a secret
 * of its own (kept by its digest, for ten minutes), held by the browser that passed the first factor; it is no
 * session, and opens nothing but the page that asks for the code.
 */
export class BeginSignIn {
  constructor(
    private readonly check: CheckSecondFactor,
    private readonly pending: PendingSignInStore,
    private readonly open: OpenWebSession,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  /** `continueTo`: where the browser goes once signed in. Null: the account may not sign in. */
  async execute(userId: number, continueTo: string): Promise<{ opened: OpenedSession } | { pending: string } | null> {
    if (!(await this.check.isOn(userId))) {
      const opened = await this.open.execute(userId, false);
      return opened && { opened };
    }
    const pending = this.secrets.generate();
    await this.pending.add({
      digest: this.secrets.digest(pending),
      userId,
      continueTo,
      expiresAt: new Date(this.clock.now().getTime() + PENDING_SIGN_IN_SECONDS * 1000),
    });
    return { pending };
  }
}

/** What a browser shows as its second factor: a typed code, or a passkey's assertion (the JSON the browser sent). */
export type SecondFactorAnswer = { code: string } | { passkey: string };

export type FinishedSignIn =
  | { outcome: 'signed-in'; opened: OpenedSession; continueTo: string; recoveryCodesLeft: number | null }
  /** The code or the passkey was wrong (counted): the page asks again. */
  | { outcome: 'wrong' }
  /** No pending sign-in (expired, used, never): the person starts again. */
  | { outcome: 'expired' };

/**
 * The second factor of a pending sign-in: a right code, or a passkey's assertion of the challenge this browser was
 * given (passkeyOptions), opens the session, and the pending sign-in is spent.
 */
export class FinishSignIn {
  constructor(
    private readonly pending: PendingSignInStore,
    private readonly check: CheckSecondFactor,
    private readonly open: OpenWebSession,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly passkeys: PasskeyStore,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly challenges: CeremonyChallengeStore,
  ) {}

  /** Whether this browser's pending sign-in is live (the page asks only then), and whether its account has passkeys. */
  async waiting(pending: string | undefined): Promise<{ passkeys: boolean } | null> {
    const found = await this.find(pending);
    return found && { passkeys: (await this.passkeys.listOf(found.userId)).length > 0 };
  }

  /**
   * The options of a passkey ceremony for this pending sign-in (its account's passkeys, a new challenge held by this
   * browser for five minutes); null when there is no live pending sign-in, or its account has no passkey.
   */
  async passkeyOptions(pending: string | undefined): Promise<Record<string, unknown> | null> {
    const found = await this.find(pending);
    if (!found) return null;
    const passkeys = await this.passkeys.listOf(found.userId);
    if (passkeys.length === 0) return null;
    const { options, challenge } = await this.ceremonies.authenticationOptions(passkeys);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + PASSKEY_CEREMONY_SECONDS * 1000);
    await this.challenges.put(ceremonyHolder(this.secrets, 'sign-in', pending!), found.userId, challenge, expiresAt, now);
    return options;
  }

  /** Throws TooManyRequests while the account is locked from this address. */
  async execute(pending: string | undefined, answer: SecondFactorAnswer, address: string): Promise<FinishedSignIn> {
    const found = await this.find(pending);
    if (!found) return { outcome: 'expired' };
    const checked = await this.checkAnswer(found.userId, pending!, answer, address);
    if (!checked) return { outcome: 'wrong' };
    await this.pending.remove(this.secrets.digest(pending!));
    const opened = await this.open.execute(found.userId, true);
    if (!opened) return { outcome: 'expired' };
    return { outcome: 'signed-in', opened, continueTo: found.continueTo, recoveryCodesLeft: checked.recoveryCodesLeft };
  }

  private async checkAnswer(userId: number, pending: string, answer: SecondFactorAnswer, address: string) {
    if ('code' in answer) return this.check.execute(userId, answer.code, address);
    // The challenge is spent by this answer, right or wrong: an assertion is never checked twice.
    const challenge = await this.challenges.take(ceremonyHolder(this.secrets, 'sign-in', pending), userId, this.clock.now());
    return (await this.check.passkey(userId, parsedCredential(answer.passkey), challenge, address))
      ? { recoveryCodesLeft: null }
      : null;
  }

  private find(pending: string | undefined) {
    if (!pending || pending.length > 512) return Promise.resolve(null);
    return this.pending.find(this.secrets.digest(pending), this.clock.now());
  }
}
