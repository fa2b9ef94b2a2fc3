import type { UserRepository } from '../../domain/users/user-repository.js';
import type { SignInRefusal } from '../../domain/users/user.js';
import { namedAccount } from '../accounts/named-account.js';
import type { ActingUser } from '../actor.js';
import type { Presence } from '../accounts/presence.js';
import type { Clock, PasswordHasher, UnitOfWork } from '../ports.js';
import type { CheckSecondFactor } from '../second-factors/check-second-factor.js';
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
 * The right password for an account with a second factor, given without its code (contract §25: the password grant
 * answers `invalid_grant`, "second factor required"). Said only to whoever knows the password.
 */
export class SecondFactorRequired extends Error {
  constructor() {
    super('second factor required');
  }
}

/** What a right password proved: the account, and whether it has a second factor still to show. */
export interface FirstFactor {
  user: ActingUser;
  secondFactor: boolean;
}

/**
 * The resource owner password grant's check, and the sign-in pages' first step: login or e-mail (any case) and
 * password, throttled. A right password checked against a hash of another kind than ours (devise's, imported from
 * homeland, contract §20) replaces it with our argon2id hash. For an account with a second factor the password
 * is not the end: the account's count of failures clears only once its code is right too (CheckSecondFactor).
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
    private readonly secondFactors: CheckSecondFactor,
  ) {}

  /**
   * The password grant: the password and, for an account with a second factor, `otp` (its code). Null when either
   * is wrong (counted); throws SecondFactorRequired when the password is right and `otp` is missing.
   */
  async execute(input: {
    username: string;
    password: string;
    address: string;
    otp?: string | undefined;
  }): Promise<ActingUser | null> {
    const proved = await this.firstFactor(input);
    if (!proved) return null;
    if (proved.secondFactor) {
      if (!input.otp) throw new SecondFactorRequired();
      if (!(await this.secondFactors.execute(proved.user.id, input.otp, input.address))) return null;
    }
    // A sign-in (the password grant): contract §17's digests skip whoever was seen.
    await this.presence.seen({ userId: proved.user.id }, this.clock.now());
    return proved.user;
  }

  /** The password alone (the sign-in pages, which then ask for the second factor themselves); null when wrong. */
  async firstFactor(input: { username: string; password: string; address: string }): Promise<FirstFactor | null> {
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
    const secondFactor = await this.secondFactors.isOn(user.id);
    // With a second factor, guessing its code after the right password must still add up to a lock.
    if (!secondFactor) await this.throttle.recordSuccess(credential, input.address);
    // Before the account's state is looked at: the password is known right now, whether or not the account may
    // sign in yet (an unconfirmed one will), and the imported hash is better gone at once.
    if (this.hasher.needsRehash(stored)) await this.rehash(user.id, stored, input.password);
    const refusal = user.signInRefusal(this.clock.now());
    if (refusal) throw new AccountNotActive(refusal);
    return { user: { id: user.id, login: user.login, role: user.role }, secondFactor };
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
