import type { UserRepository } from '../../domain/users/user-repository.js';
import type { SignInRefusal } from '../../domain/users/user.js';
import { namedAccount } from '../accounts/named-account.js';
import type { ActingUser } from '../actor.js';
import type { Presence } from '../accounts/presence.js';
import type { Clock, PasswordHasher, UnitOfWork } from '../ports.js';
import type { CredentialThrottle } from './credential-throttle.js';

/**
 * The right password for an account that may not sign in (contract §16b, §18): its address is not confirmed, it
 * waits for an administrator, or it is suspended (until when). Said only to whoever knows the password.
 */
export class AccountNotActive extends Error {
  readonly state: SignInRefusal['reason'];
  readonly until: Date | null;

  constructor(refusal: SignInRefusal) {
    super(AccountNotActive.saying(refusal));
    this.state = refusal.reason;
    this.until = refusal.reason === 'suspended' ? refusal.until : null;
  }

  private static saying(refusal: SignInRefusal): string {
    switch (refusal.reason) {
      case 'unverified':
        return 'The e-mail address of this account is not confirmed yet: follow the link in the verification mail';
      case 'pending':
        return 'This account is waiting for an administrator’s approval';
      case 'left':
        // No password opens an account that left: nobody is ever told this, but the cases are all named.
        return 'This account was deleted';
      case 'suspended':
        return `This account is suspended until ${refusal.until.toISOString()}`;
    }
  }
}

/**
 * The resource owner password grant's check, and the sign-in page's: login or e-mail (any case) and password,
 * throttled. A right password checked against a hash of another kind than ours (devise's, imported from homeland,
 * contract §20) replaces it with our argon2id hash.
 */
export class PasswordLogin {
  /** Verified against when the user does not exist, so that the answer takes as long either way. */
  private decoyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly throttle: CredentialThrottle,
    private readonly presence: Presence,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: { username: string; password: string; address: string }): Promise<ActingUser | null> {
    const identifier = input.username.trim().toLowerCase();
    const user = await namedAccount(this.users, identifier);
    // The account, whichever identifier named it; names that are no account are counted as they were typed.
    const credential = user ? `user:${user.id}` : `name:${identifier}`;
    await this.throttle.ensureAllowed(credential, input.address);
    const stored = user?.passwordHash ?? null;
    const hash = stored ?? (await (this.decoyHash ??= this.hasher.hash('decoy password')));
    const valid = (await this.hasher.verify(hash, input.password)) && user !== null && stored !== null;
    if (!valid) {
      await this.throttle.recordFailure(credential, input.address);
      return null;
    }
    await this.throttle.recordSuccess(credential, input.address);
    // Before the account's state is looked at: the password is known right now, whether or not the account may
    // sign in yet (an unconfirmed one will), and the imported hash is better gone at once.
    if (this.hasher.needsRehash(stored)) await this.rehash(user.id, stored, input.password);
    const refusal = user.signInRefusal(this.clock.now());
    if (refusal) throw new AccountNotActive(refusal);
    // A sign-in (the password grant, the sign-in page): contract §17's digests skip whoever was seen.
    await this.presence.seen({ userId: user.id }, this.clock.now());
    return { id: user.id, login: user.login, role: user.role };
  }

  /** Replaces `verified`, the hash the password was just checked against, unless it changed meanwhile (a reset). */
  private async rehash(userId: number, verified: string, password: string): Promise<void> {
    const passwordHash = await this.hasher.hash(password);
    await this.uow.run(async () => {
      const fresh = await this.users.findById(userId);
      if (fresh?.passwordHash === verified) fresh.setPasswordHash(passwordHash, this.clock.now());
    });
  }
}
