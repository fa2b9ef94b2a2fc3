import type { UserRepository } from '../../domain/users/user-repository.js';
import type { ActingUser } from '../actor.js';
import type { Presence } from '../accounts/presence.js';
import type { Clock, SecretGenerator } from '../ports.js';
import type { PasswordLogin } from './password-login.js';

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

/** Signs a person in with their login (or e-mail) and password, throttled as the password grant is. */
export class SignIn {
  constructor(
    private readonly passwordLogin: PasswordLogin,
    private readonly sessions: WebSessionStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  /** The session's secret (for the cookie) and its user; null when the login or password is wrong. */
  async execute(input: {
    username: string;
    password: string;
    address: string;
  }): Promise<{ session: string; user: ActingUser } | null> {
    const user = await this.passwordLogin.execute(input);
    if (!user) return null;
    const session = this.secrets.generate();
    const now = this.clock.now();
    await this.sessions.add({
      digest: this.secrets.digest(session),
      userId: user.id,
      expiresAt: new Date(now.getTime() + WEB_SESSION_SECONDS * 1000),
      createdAt: now,
    });
    return { session, user };
  }
}

/**
 * Signs a person in without a password, after they followed a link mailed to their address (confirmed it, or
 * reset their password): the link proved who they are. Only an account that may sign in gets a session; one
 * waiting for approval, suspended (or gone) gets none.
 */
export class OpenWebSession {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: WebSessionStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly presence: Presence,
  ) {}

  /** The session's secret (for the cookie) and its user; null when the account may not sign in. */
  async execute(userId: number): Promise<{ session: string; user: ActingUser } | null> {
    const account = await this.users.findById(userId);
    const now = this.clock.now();
    if (!account || account.signInRefusal(now)) return null;
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

/** The person behind a session cookie, if the session is live. */
export class ResolveWebSession {
  constructor(
    private readonly sessions: WebSessionStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly presence: Presence,
  ) {}

  /** Asked by every page a session opens: a request of that person (contract §17's "seen"). */
  async execute(session: string | undefined): Promise<ActingUser | null> {
    if (!session || session.length > 512) return null;
    const now = this.clock.now();
    const user = await this.sessions.userFor(this.secrets.digest(session), now);
    if (user) await this.presence.seen({ userId: user.id }, now);
    return user;
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
