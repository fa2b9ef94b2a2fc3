import { z } from 'zod';
import type { ProviderLinkStore } from '../providers/links.js';
import { moderationActed } from '../../domain/events.js';
import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, type ActingUser, requireAdmin, requireUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { Text, maybe, readAll } from '../inputs.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { CurrentPassword } from './current-password.js';
import type { SignOutEverywhere } from '../tokens/access-tokens.js';
import type { DeleteReply } from '../replies/delete-reply.js';
import type { DeleteTopic } from '../topics/delete-topic.js';
import type { MailLinks } from './mail-links.js';
import type { DeviceRegistry } from '../devices/devices.js';
import type { SecondFactorStore } from '../second-factors/ports.js';

/** Everything the service holds about a user, as one JSON document (contract §16c). */
export interface AccountExport {
  /** Null when there is no such user. */
  of(userId: number): Promise<Record<string, unknown> | null>;
}
export const AccountExport = Symbol.for('AccountExport');

/** What a user wrote in the forum that is still shown: for a purge. Never a conversation's messages (below). */
export interface AuthoredContent {
  topicIds(userId: number): Promise<number[]>;
  replyIds(userId: number): Promise<number[]>;
}
export const AuthoredContent = Symbol.for('AuthoredContent');

export class ExportAccount {
  constructor(private readonly exports: AccountExport) {}

  async execute(actor: Actor): Promise<Record<string, unknown>> {
    const user = requireUser(actor);
    const document = await this.exports.of(user.id);
    if (!document) throw new NotFound('user');
    return document;
  }
}

/**
 * What confirms leaving (contract §16c): the password; an account without one (made by signing in with another
 * provider, contract §25) types its login instead. Each is optional here: which one the account needs is the use
 * case's to say, and a missing one is refused as a wrong one (400 RecordInvalid).
 */
export const DeleteAccountParams = z.object({
  password: maybe(Text).meta({ description: 'your password, to confirm (an account that has one must give it)' }),
  login: maybe(Text).meta({
    description:
      'an account without a password (made by signing in with another provider): its own login, to confirm; ' +
      'never taken in place of a password',
    example: 'alice',
  }),
});

/**
 * Leaving (contract §16c): the account is anonymized, not erased. Its login becomes `deleted_<id>`; name, e-mail,
 * profile, devices, tokens (personal ones too), sessions, sign-ins waiting for a code, mail links, second factors and
 * provider links are gone, and no password works: nothing signs in as it or acts for it. What it wrote stays, shown as
 * that login. `user.deleted` goes to webhooks. In conversations (contract §24) it stays a participant, and its
 * messages stay: the others keep their conversation whole, its author shown as `deleted_<id>`.
 */
export class Anonymizer {
  constructor(
    private readonly signOut: SignOutEverywhere,
    private readonly devices: DeviceRegistry,
    private readonly links: MailLinks,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
    private readonly providerLinks: Pick<ProviderLinkStore, 'removeAllFor'>,
    private readonly secondFactors: Pick<SecondFactorStore, 'removeAll'>,
  ) {}

  /** Inside a unit of work. */
  async anonymize(user: User): Promise<void> {
    const now = this.clock.now();
    user.anonymize(now);
    // Every token (personal ones are rows of the same table), session and sign-in waiting for its code.
    await this.signOut.execute(user.id);
    await this.devices.removeAllFor(user.id);
    await this.links.spendAll(user.id, ['verify', 'reset', 'email_change'], now);
    // No provider signs anyone into it again; their identity may make a new account.
    await this.providerLinks.removeAllFor(user.id);
    // Its sealed TOTP secret and recovery codes: nothing of a way in is kept for an account nobody may use.
    await this.secondFactors.removeAll(user.id);
    await this.events.record({ type: 'user.deleted', userId: user.id });
  }
}

/**
 * The user leaves, confirming with their password, or, for an account without one, with their login
 * (CurrentPassword#confirms): a failed confirmation counts with the account's failed sign-ins.
 */
export class DeleteOwnAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly current: CurrentPassword,
    private readonly anonymizer: Anonymizer,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, raw: unknown, context: { address: string }): Promise<void> {
    const caller = requireUser(actor);
    const typed = readAll(DeleteAccountParams, raw);
    const user = await this.users.findById(caller.id);
    if (!user) throw new NotFound('user');
    if (!(await this.current.confirms(user, typed, context.address))) {
      throw new RuleViolated(
        user.hasPassword()
          ? 'Validation failed: Password is not correct'
          : 'Validation failed: Login is not correct: this account has no password, so type your login to confirm',
      );
    }
    await this.uow.run(async () => {
      const fresh = await this.users.findById(caller.id);
      if (!fresh) throw new NotFound('user');
      await this.anonymizer.anonymize(fresh);
    });
  }
}

/**
 * forumctl users delete: an administrator anonymizes an account (audited); `purge` also deletes what it wrote in the
 * forum, topic by topic and reply by reply, through the same use cases as a moderator's deletions (counters, search,
 * notifications and webhooks follow). Its messages in conversations stay, as on leaving: forumctl does not read
 * conversations (contract §24). Returns what was purged.
 */
export class DeleteAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly anonymizer: Anonymizer,
    private readonly content: AuthoredContent,
    private readonly deleteTopic: DeleteTopic,
    private readonly deleteReply: DeleteReply,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(
    actor: Actor,
    login: string,
    options: { purge: boolean; reason: string | null },
  ): Promise<{ userId: number; topics: number; replies: number }> {
    const admin: ActingUser = requireAdmin(actor);
    const target = await this.users.findByLogin(login);
    if (!target) throw new NotFound(`user ${login}`);
    if (target.login === 'system') throw new RuleViolated('the system user cannot be deleted');
    let topics = 0;
    let replies = 0;
    if (options.purge) {
      for (const id of await this.content.replyIds(target.id)) {
        await this.deleteReply.execute(admin, id, options.reason).then(() => replies++, ignoreGone);
      }
      for (const id of await this.content.topicIds(target.id)) {
        await this.deleteTopic.execute(admin, id, options.reason).then(() => topics++, ignoreGone);
      }
    }
    await this.uow.run(async () => {
      const user = await this.users.findById(target.id);
      if (!user) throw new NotFound(`user ${login}`);
      const before = user.login;
      await this.anonymizer.anonymize(user);
      const changes = { login: [before, user.login] as [string, string], purged: [null, { topics, replies }] as [null, object] };
      await this.events.record(moderationActed('user.delete', admin.id, { type: 'User', id: user.id }, changes, options.reason));
    });
    return { userId: target.id, topics, replies };
  }
}

/** Deleted meanwhile by someone else: nothing left to purge. */
function ignoreGone(error: unknown): void {
  if (!(error instanceof NotFound)) throw error;
}
