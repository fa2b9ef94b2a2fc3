import type { User } from '../../domain/users/user.js';
import type { CredentialThrottle } from '../oauth/credential-throttle.js';
import type { PasswordHasher } from '../ports.js';

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
    if (matches) await this.throttle.recordSuccess(credential, address);
    else await this.throttle.recordFailure(credential, address);
    return matches;
  }
}
