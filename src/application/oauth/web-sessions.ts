import type { UserRepository } from '../../domain/users/user-repository.js';
import type { ActingUser } from '../actor.js';
import type { Presence } from '../accounts/presence.js';
import type { Clock, SecretGenerator } from '../ports.js';
import type { SecondFactorStore } from '../second-factors/ports.js';
import type { AdminSecondFactorRule } from '../second-factors/admin-rule.js';

/**
 * Browser sessions of the sign-in page (GET /oauth/authorize): a person signs in once and then approves
 * applications. Only the page uses them; the API knows nothing but tokens. Kept in the database (by digest),
 * so that any server process knows them and an administrator can end them all.
 */
export const WEB_SESSION_SECONDS = 14 * 86_400;

export interface WebSessionStore {
  add(session: { digest: string; userId: number; expiresAt: Date; createdAt: Date }): Promise<void>;
  /** The user of a live session. */
  userFor(digest: string, now: Date): Promise<ActingUser | null>;
  remove(digest: string): Promise<void>;
  /** Ends every session of a user; returns how many. */
  removeAllFor(userId: number): Promise<number>;
  /** Deletes sessions that expired; returns how many. */
  purge(now: Date): Promise<number>;
}
export const WebSessionStore = Symbol.for('WebSessionStore');

/**
 * Opens a browser session for an account that proved who it is: every factor it has (the sign-in step,
 * second-factors/sign-in-step.ts), or only a link mailed to its address (confirmed it, or reset its password)
 * or its password on the settings page. Only an account that may sign in gets a session; one waiting for
 * approval, suspended (or gone) gets none, and neither does one with a second factor that was not shown
 * (a mailed link is no second factor: such a person signs in again, with their code).
 */
export class OpenWebSession {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: WebSessionStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly presence: Presence,
    private readonly secondFactors: SecondFactorStore,
  ) {}

  /**
   * The session's secret (for the cookie) and its user; null when the account may not sign in, or has a second
   * factor and `secondFactorShown` is false.
   */
  async execute(userId: number, secondFactorShown: boolean): Promise<{ session: string; user: ActingUser } | null> {
    const account = await this.users.findById(userId);
    const now = this.clock.now();
    if (!account || account.signInRefusal(now)) return null;
    if (!secondFactorShown && (await this.secondFactors.isOn(account.id))) return null;
    const session = this.secrets.generate();
    await this.sessions.add({
      digest: this.secrets.digest(session),
      userId: account.id,
      expiresAt: new Date(now.getTime() + WEB_SESSION_SECONDS * 1000),
      createdAt: now,
    });
    await this.presence.seen({ userId: account.id }, now);
    return { session, user: { id: account.id, login: account.login, role: account.role } };
  }
}

/** The person behind a session cookie, if the session is live (held back as REQUIRE_2FA says: AdminSecondFactorRule). */
export class ResolveWebSession {
  constructor(
    private readonly sessions: WebSessionStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly presence: Presence,
    private readonly adminRule: AdminSecondFactorRule,
  ) {}

  /** Asked by every page a session opens: a request of that person (contract §17's "seen"). */
  async execute(session: string | undefined): Promise<ActingUser | null> {
    if (!session || session.length > 512) return null;
    const now = this.clock.now();
    const user = await this.sessions.userFor(this.secrets.digest(session), now);
    if (!user) return null;
    await this.presence.seen({ userId: user.id }, now);
    return this.adminRule.apply(user);
  }
}

export class SignOut {
  constructor(
    private readonly sessions: WebSessionStore,
    private readonly secrets: SecretGenerator,
  ) {}

  async execute(session: string | undefined): Promise<void> {
    if (!session || session.length > 512) return;
    await this.sessions.remove(this.secrets.digest(session));
  }
}
