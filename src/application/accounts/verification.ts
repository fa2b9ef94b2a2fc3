import { z } from 'zod';
import { RuleViolated } from '../../domain/shared/errors.js';
import type { AccountState } from '../../domain/users/user.js';
import type { MailTokenPurpose } from '../../domain/events.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import type { ActingUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { Text, readAll } from '../inputs.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { AccountThrottle } from './account-throttle.js';
import type { MailLinks } from './mail-links.js';
import { namedAccount } from './named-account.js';

/** Within this long of the last verification mail to an account, asking again sends nothing (contract §16b). */
export const RESEND_AFTER_SECONDS = 60;

/** What a link confirmed, for the page that follows. */
export interface Confirmed {
  user: ActingUser;
  /** Where the account now stands (one that left follows no link). */
  state: Exclude<AccountState, 'left'>;
  /** `email_change`: the address now in use. */
  email: string | null;
}

/**
 * A verification link followed and confirmed (POST; a GET only shows the button, contract §16b): the sign-up's
 * address is confirmed (the account is active, or waits for approval), or a changed address takes effect (the
 * previous one is told). Null when the token is unknown, used, expired or for something else.
 */
export class ConfirmAddress {
  constructor(
    private readonly users: UserRepository,
    private readonly links: MailLinks,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly approvalRequired: boolean,
  ) {}

  async execute(token: string): Promise<Confirmed | null> {
    const now = this.clock.now();
    return this.uow.run(async () => {
      const row = await this.links.take(token, ['verify', 'email_change'], now);
      if (!row) return null;
      const user = await this.users.findById(row.userId);
      if (!user || user.state === 'left') return null;
      if (row.purpose === 'verify') {
        user.confirmAddress(this.approvalRequired, now);
      } else {
        const previousEmail = user.email;
        const taken = await this.users.isTaken(user.login, row.email!);
        if (taken.email) throw new RuleViolated('Validation failed: Email has already been taken');
        user.changeEmail(row.email!, now);
        await this.events.record({ type: 'account.email_changed', userId: user.id, previousEmail });
      }
      return {
        user: { id: user.id, login: user.login, role: user.role },
        state: user.state as Confirmed['state'],
        email: row.purpose === 'email_change' ? user.email : null,
      };
    });
  }
}

/** Whose a mail link is, as its page says it. */
export interface MailLinkOwner {
  login: string;
  hasPassword: boolean;
  spent: boolean;
}

/** What a mail link is for, before anyone uses it (its page shows whose it is). */
export class DescribeMailLink {
  constructor(
    private readonly users: UserRepository,
    private readonly links: MailLinks,
    private readonly clock: Clock,
  ) {}

  /**
   * Whose link it is, whether that account has a password (a reset link for one without sets its first), and
   * whether the link did its work already: a verification link opened again once its address is confirmed is `spent`
   * (the page says the address is confirmed, rather than that the link cannot be used). Null for a token that is
   * unknown, expired, or used for anything else.
   */
  async execute(token: string, purposes: readonly MailTokenPurpose[]): Promise<MailLinkOwner | null> {
    const row = await this.links.peek(token, purposes, this.clock.now());
    if (row) {
      const user = await this.users.findById(row.userId);
      return user ? { login: user.login, hasPassword: user.hasPassword(), spent: false } : null;
    }
    if (!purposes.includes('verify')) return null;
    const used = await this.links.spent(token, ['verify']);
    const user = used ? await this.users.findById(used.userId) : null;
    return user && (user.state === 'active' || user.state === 'pending')
      ? { login: user.login, hasPassword: user.hasPassword(), spent: true }
      : null;
  }
}

export const ResendVerificationParams = z.object({
  login: Text.meta({ description: 'the login or e-mail address of the account', example: 'alice' }),
});

/**
 * Sends the verification mail again (contract §16b): always `{"ok":1}`; a mail only for an unverified account
 * whose last one is older than a minute.
 */
export class ResendVerification {
  constructor(
    private readonly users: UserRepository,
    private readonly links: MailLinks,
    private readonly throttle: AccountThrottle,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(raw: unknown, context: { address: string }): Promise<void> {
    const { login } = readAll(ResendVerificationParams, raw);
    await this.throttle.attempt('resend', context.address, login);
    const now = this.clock.now();
    await this.uow.run(async () => {
      const user = await namedAccount(this.users, login);
      if (!user || user.state !== 'unverified') return;
      const last = await this.links.lastIssuedAt(user.id, 'verify');
      if (last && now.getTime() - last.getTime() < RESEND_AFTER_SECONDS * 1000) return;
      await this.links.send(user.id, 'verify', now);
    });
  }
}
