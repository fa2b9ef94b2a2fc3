import { z } from 'zod';
import { RuleViolated } from '../../domain/shared/errors.js';
import { type CommonPasswords, checkNewPassword } from '../../domain/users/password.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import type { ActingUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { Text, readAll } from '../inputs.js';
import type { Clock, PasswordHasher, UnitOfWork } from '../ports.js';
import type { SignOutEverywhere } from '../tokens/access-tokens.js';
import type { AccountThrottle } from './account-throttle.js';
import type { MailLinks } from './mail-links.js';
import { namedAccount } from './named-account.js';

export const ForgotPasswordParams = z.object({
  login: Text.meta({ description: 'the login or e-mail address of the account', example: 'alice@example.com' }),
});

/**
 * A forgotten password (contract §16b): a reset link goes to the account's address, if there is such an account.
 * The answer is the same, and as fast, either way.
 */
export class RequestPasswordReset {
  constructor(
    private readonly users: UserRepository,
    private readonly links: MailLinks,
    private readonly throttle: AccountThrottle,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(raw: unknown, context: { address: string }): Promise<void> {
    const { login } = readAll(ForgotPasswordParams, raw);
    await this.throttle.attempt('forgot', context.address, login);
    const now = this.clock.now();
    await this.uow.run(async () => {
      const user = await namedAccount(this.users, login);
      if (user) await this.links.send(user.id, 'reset', now);
    });
  }
}

/** What a person gets back from a reset: who they are now signed in as. */
export interface PasswordReset {
  user: ActingUser;
}

/**
 * A reset link's form sent (contract §16b): the new password is checked like any new one; the link is spent, and
 * so is every other reset link of the account; every token and browser session of the user ends; a notice goes to
 * the account's address. Following a link mailed to the address proves it: an unverified account is confirmed.
 * Null when the token is unknown, used, expired or for something else.
 */
export class ResetPassword {
  constructor(
    private readonly users: UserRepository,
    private readonly links: MailLinks,
    private readonly hasher: PasswordHasher,
    private readonly common: CommonPasswords,
    private readonly signOut: SignOutEverywhere,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly approvalRequired: boolean,
  ) {}

  async execute(token: string, password: string): Promise<PasswordReset | null> {
    const now = this.clock.now();
    // Checked before the slow hash, without spending the link: a refused password leaves it usable.
    const peeked = await this.links.peek(token, ['reset'], now);
    if (!peeked) return null;
    const owner = await this.users.findById(peeked.userId);
    if (!owner) return null;
    if (typeof password !== 'string' || password.includes('\u0000')) {
      throw new RuleViolated('Validation failed: Password is invalid');
    }
    checkNewPassword(password, owner, this.common);
    const passwordHash = await this.hasher.hash(password);
    return this.uow.run(async () => {
      const row = await this.links.take(token, ['reset'], now);
      if (!row) return null;
      const user = await this.users.findById(row.userId);
      if (!user) return null;
      user.setPasswordHash(passwordHash, now);
      user.confirmAddress(this.approvalRequired, now);
      await this.links.spendAll(user.id, ['reset'], now);
      await this.signOut.execute(user.id);
      await this.events.record({ type: 'account.password_changed', userId: user.id });
      return { user: { id: user.id, login: user.login, role: user.role } };
    });
  }
}
