import { type AuditChanges, moderationActed } from '../../domain/events.js';
import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { readReason } from '../inputs.js';
import type { UnitOfWork } from '../ports.js';
import type { SecondFactorStore } from './ports.js';

/**
 * `forumctl users 2fa reset <login>` (contract §25): an administrator removes a person's second factors (their
 * authenticator, their passkeys, and the recovery codes), for someone who lost them; audited, the entry saying how
 * many passkeys went. The person then signs in with their password alone and may set up a new one.
 */
export class ResetSecondFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly store: SecondFactorStore,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, login: string, rawReason?: unknown): Promise<void> {
    const admin = requireAdmin(actor);
    const reason = readReason(rawReason);
    await this.uow.run(async () => {
      const user = await this.users.findByLogin(login);
      if (!user) throw new NotFound(`user ${login}`);
      const removed = await this.store.removeAll(user.id);
      if (!removed.totp && removed.passkeys === 0) {
        throw new RuleViolated(`Validation failed: ${login} has no second factor`);
      }
      const target = { type: 'User', id: user.id } as const;
      const changes: AuditChanges = {
        second_factor: [true, false],
        totp: [removed.totp, false],
        passkeys: [removed.passkeys, 0],
      };
      await this.events.record(moderationActed('user.second_factor_reset', admin.id, target, changes, reason));
    });
  }
}
