import type { UserRepository } from '../../domain/users/user-repository.js';
import type { ActingUser } from '../actor.js';
import type { PasswordHasher } from '../ports.js';

/**
 * Counts failed password logins per account and per client address, in a store every server process shares.
 * Each count lives for a window and then starts again: a real user is never locked out for longer than that.
 */
export interface LoginThrottle {
  /** Throws TooManyRequests (with the seconds to wait) while either key is over its limit. */
  ensureAllowed(account: string, address: string): Promise<void>;
  recordFailure(account: string, address: string): Promise<void>;
  /** A successful login clears the account's count (not the address's). */
  recordSuccess(account: string): Promise<void>;
}
export const LoginThrottle = Symbol.for('LoginThrottle');

/** The resource owner password grant's check: login or e-mail (any case) and password, throttled. */
export class PasswordLogin {
  /** Verified against when the user does not exist, so that the answer takes as long either way. */
  private decoyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: LoginThrottle,
  ) {}

  async execute(input: { username: string; password: string; address: string }): Promise<ActingUser | null> {
    const account = input.username.trim().toLowerCase();
    await this.throttle.ensureAllowed(account, input.address);
    const user = await this.users.findByLoginOrEmail(account);
    const hash = user?.passwordHash ?? (await (this.decoyHash ??= this.hasher.hash('decoy password')));
    const valid = (await this.hasher.verify(hash, input.password)) && user !== null && user.passwordHash !== null;
    if (!valid) {
      await this.throttle.recordFailure(account, input.address);
      return null;
    }
    await this.throttle.recordSuccess(account);
    return { id: user.id, login: user.login, role: user.role };
  }
}
