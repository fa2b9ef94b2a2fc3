import type { User } from '../../domain/users/user.js';
import type { CredentialThrottle } from '../oauth/credential-throttle.js';
import type { PasswordHasher } from '../ports.js';

/** What a person typed to confirm an act on their account: their password, or (an account without one) their login. */
export interface Confirmation {
  password?: string | undefined;
  login?: string | undefined;
}

/**
 * The current password asked for by a password change, an e-mail change or leaving: a guess like any other, so it
 * counts with the account's failed sign-ins from that address (a stolen session or token cannot try passwords).
 */
export class CurrentPassword {
  constructor(
    private readonly hasher: PasswordHasher,
    private readonly throttle: CredentialThrottle,
  ) {}

  /** Whether `password` is the account's; throws TooManyRequests while this account and address are locked. */
  async matches(user: User, password: string, address: string): Promise<boolean> {
    const credential = `user:${user.id}`;
    await this.throttle.ensureAllowed(credential, address);
    const matches = user.passwordHash !== null && (await this.hasher.verify(user.passwordHash, password));
    await this.record(credential, address, matches);
    return matches;
  }

  /**
   * Whether `typed` confirms an act that asks for the password (leaving). An account with a password gives it, and
   * nothing else stands in for it; an account without one (made by signing in with another provider: `hasPassword`)
   * has none to give, so it types its own login instead, in any case, as GitHub asks for the name of what is
   * deleted. A confirmation that fails counts as a wrong password does, and the same lock holds both.
   */
  async confirms(user: User, typed: Confirmation, address: string): Promise<boolean> {
    if (user.hasPassword()) return this.matches(user, typed.password ?? '', address);
    const credential = `user:${user.id}`;
    await this.throttle.ensureAllowed(credential, address);
    const login = typed.login?.trim().toLowerCase();
    const confirmed = login !== undefined && login !== '' && login === user.login.toLowerCase();
    await this.record(credential, address, confirmed);
    return confirmed;
  }

  private async record(credential: string, address: string, success: boolean): Promise<void> {
    if (success) await this.throttle.recordSuccess(credential, address);
    else await this.throttle.recordFailure(credential, address);
  }
}
