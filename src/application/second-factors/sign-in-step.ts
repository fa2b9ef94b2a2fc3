import type { ActingUser } from '../actor.js';
import type { OpenWebSession } from '../oauth/web-sessions.js';
import type { Clock, SecretGenerator } from '../ports.js';
import type { CheckSecondFactor } from './check-second-factor.js';
import type { PendingSignInStore } from './ports.js';

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

export type FinishedSignIn =
  | { outcome: 'signed-in'; opened: OpenedSession; continueTo: string; recoveryCodesLeft: number | null }
  /** The code was wrong (counted): the page asks again. */
  | { outcome: 'wrong' }
  /** No pending sign-in (expired, used, never): the person starts again. */
  | { outcome: 'expired' };

/** The second factor of a pending sign-in: a right code opens the session, and the pending sign-in is spent. */
export class FinishSignIn {
  constructor(
    private readonly pending: PendingSignInStore,
    private readonly check: CheckSecondFactor,
    private readonly open: OpenWebSession,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  /** Whether this browser's pending sign-in is live (the page asks for the code only then). */
  async waiting(pending: string | undefined): Promise<boolean> {
    return (await this.find(pending)) !== null;
  }

  /** Throws TooManyRequests while the account is locked from this address. */
  async execute(pending: string | undefined, code: string, address: string): Promise<FinishedSignIn> {
    const found = await this.find(pending);
    if (!found) return { outcome: 'expired' };
    const checked = await this.check.execute(found.userId, code, address);
    if (!checked) return { outcome: 'wrong' };
    await this.pending.remove(this.secrets.digest(pending!));
    const opened = await this.open.execute(found.userId, true);
    if (!opened) return { outcome: 'expired' };
    return { outcome: 'signed-in', opened, continueTo: found.continueTo, recoveryCodesLeft: checked.recoveryCodesLeft };
  }

  private find(pending: string | undefined) {
    if (!pending || pending.length > 512) return Promise.resolve(null);
    return this.pending.find(this.secrets.digest(pending), this.clock.now());
  }
}
