import { moderationActed } from '../../domain/events.js';
import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { MailLinks } from './mail-links.js';
import { MAIL_TOKEN_SECONDS } from './account-tokens.js';

/** An account in the approval queue (REGISTRATION=approval): its address confirmed, waiting for an administrator. */
export interface PendingAccount {
  id: number;
  login: string;
  name: string | null;
  email: string;
  createdAt: Date;
}

export interface PendingAccounts {
  /** Oldest first. */
  list(offset: number, limit: number): Promise<PendingAccount[]>;
}
export const PendingAccounts = Symbol.for('PendingAccounts');

export class ListPendingAccounts {
  constructor(private readonly pending: PendingAccounts) {}

  execute(actor: Actor, page: { offset: number; limit: number }): Promise<PendingAccount[]> {
    requireAdmin(actor);
    return this.pending.list(page.offset, page.limit);
  }
}

async function accountByLogin(users: UserRepository, login: string): Promise<User> {
  const user = await users.findByLogin(login);
  if (!user) throw new NotFound(`user ${login}`);
  return user;
}

/** forumctl users approve: lets a waiting account in; its owner is told by mail. Audited. */
export class ApproveAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, login: string, reason: string | null = null): Promise<void> {
    const admin = requireAdmin(actor);
    await this.uow.run(async () => {
      const user = await accountByLogin(this.users, login);
      if (!user.approve(this.clock.now())) throw new RuleViolated(`${user.login} is not waiting for approval (${user.state})`);
      await this.events.record({ type: 'account.approved', userId: user.id });
      const changes = { state: ['pending', 'active'] as [string, string] };
      await this.events.record(moderationActed('user.approve', admin.id, { type: 'User', id: user.id }, changes, reason));
    });
  }
}

/**
 * forumctl users reject: a waiting account is removed (it never could write anything), freeing its login and
 * address. Audited, with the reason.
 */
export class RejectAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, login: string, reason: string | null = null): Promise<void> {
    const admin = requireAdmin(actor);
    await this.uow.run(async () => {
      const user = await accountByLogin(this.users, login);
      if (user.state !== 'pending') throw new RuleViolated(`${user.login} is not waiting for approval (${user.state})`);
      await this.users.remove(user);
      const changes = { login: [user.login, null] as [string, null], state: ['pending', null] as [string, null] };
      await this.events.record(moderationActed('user.reject', admin.id, { type: 'User', id: user.id }, changes, reason));
    });
  }
}

/** forumctl users verify: an operator vouches for an address whose mail does not arrive. Audited. */
export class VerifyAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, login: string, reason: string | null = null): Promise<void> {
    const admin = requireAdmin(actor);
    await this.uow.run(async () => {
      const user = await accountByLogin(this.users, login);
      if (!user.markVerified(this.clock.now()))
        throw new RuleViolated(`${user.login} has no address waiting to be confirmed (the account is ${user.state})`);
      const changes = { state: ['unverified', 'active'] as [string, string] };
      await this.events.record(moderationActed('user.verify', admin.id, { type: 'User', id: user.id }, changes, reason));
    });
  }
}

/** forumctl users reset-link: a one-hour reset link, printed rather than mailed (for a user whose mail does not arrive). */
export class MakeResetLink {
  constructor(
    private readonly users: UserRepository,
    private readonly links: MailLinks,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, login: string): Promise<{ token: string; expiresAt: Date }> {
    requireAdmin(actor);
    const now = this.clock.now();
    return this.uow.run(async () => {
      const user = await accountByLogin(this.users, login);
      const id = await this.links.make(user.id, 'reset', now);
      return { token: this.links.tokenFor(id), expiresAt: new Date(now.getTime() + MAIL_TOKEN_SECONDS.reset * 1000) };
    });
  }
}
