import type { UserRepository } from '../../domain/users/user-repository.js';
import { namedAccount } from '../accounts/named-account.js';
import type { ActingUser } from '../actor.js';
import type { Presence } from '../accounts/presence.js';
import type { Clock, PasswordHasher } from '../ports.js';
import type { CredentialThrottle } from './credential-throttle.js';

/**
 * The right password for an account that may not sign in yet (contract §16b): its address is not confirmed, or it
 * waits for an administrator. Said only to whoever knows the password.
 */
export class AccountNotActive extends Error {
  constructor(readonly state: 'unverified' | 'pending') {
    super(
      state === 'unverified'
        ? 'The e-mail address of this account is not confirmed yet: follow the link in the verification mail'
        : 'This account is waiting for an administrator’s approval',
    );
  }
}

/** The resource owner password grant's check: login or e-mail (any case) and password, throttled. */
export class PasswordLogin {
  /** Verified against when the user does not exist, so that the answer takes as long either way. */
  private decoyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: CredentialThrottle,
    private readonly presence: Presence,
    private readonly clock: Clock,
  ) {}

  async execute(input: { username: string; password: string; address: string }): Promise<ActingUser | null> {
    const identifier = input.username.trim().toLowerCase();
    const user = await namedAccount(this.users, identifier);
    // The account, whichever identifier named it; names that are no account are counted as they were typed.
    const credential = user ? `user:${user.id}` : `name:${identifier}`;
    await this.throttle.ensureAllowed(credential, input.address);
    const hash = user?.passwordHash ?? (await (this.decoyHash ??= this.hasher.hash('decoy password')));
    const valid = (await this.hasher.verify(hash, input.password)) && user !== null && user.passwordHash !== null;
    if (!valid) {
      await this.throttle.recordFailure(credential, input.address);
      return null;
    }
    await this.throttle.recordSuccess(credential, input.address);
    if (user.state !== 'active') throw new AccountNotActive(user.state);
    // A sign-in (the password grant, the sign-in page): contract §17's digests skip whoever was seen.
    await this.presence.seen({ userId: user.id }, this.clock.now());
    return { id: user.id, login: user.login, role: user.role };
  }
}
