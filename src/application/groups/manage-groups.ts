import { Group } from '../../domain/groups/group.js';
import type { GroupRepository } from '../../domain/groups/group-repository.js';
import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type AuditChanges, moderationActed } from '../../domain/events.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { Clock, UnitOfWork } from '../ports.js';

/**
 * Groups (contract §23) are administrators' to shape: making, renaming, deleting them and choosing their members.
 * The audit log keeps each change, with the administrator as actor.
 */

const TAKEN = 'Validation failed: Name has already been taken';

async function existingGroup(groups: GroupRepository, name: string): Promise<Group> {
  const group = await groups.byName(name);
  if (!group) throw new NotFound(`group ${name}`);
  return group;
}

export class CreateGroup {
  constructor(
    private readonly groups: GroupRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Returns the new group. */
  async execute(actor: Actor, input: { name: string; title?: string; hidden?: boolean }, reason: string | null = null) {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const group = Group.create(input, this.clock.now());
      if (await this.groups.nameTaken(group.name)) throw new RuleViolated(TAKEN);
      await this.groups.add(group);
      const changes: AuditChanges = { name: [null, group.name], title: [null, group.title], hidden: [null, group.hidden] };
      await this.events.record(moderationActed('group.create', admin.id, { type: 'Group', id: group.id }, changes, reason));
      return group;
    });
  }
}

export class UpdateGroup {
  constructor(
    private readonly groups: GroupRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Renames, retitles, hides or shows group `name`; returns it as it then is. */
  async execute(
    actor: Actor,
    name: string,
    change: { name?: string; title?: string; hidden?: boolean },
    reason: string | null = null,
  ): Promise<Group> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const group = await existingGroup(this.groups, name);
      const before = { name: group.name, title: group.title, hidden: group.hidden };
      const now = this.clock.now();
      if (change.name !== undefined) group.rename(change.name, now);
      if (change.title !== undefined) group.retitle(change.title, now);
      if (change.hidden !== undefined) group.setHidden(change.hidden, now);
      if (group.name !== before.name && (await this.groups.nameTaken(group.name, group.id))) throw new RuleViolated(TAKEN);
      const changes: AuditChanges = {};
      for (const key of ['name', 'title', 'hidden'] as const) {
        if (group[key] !== before[key]) changes[key] = [before[key], group[key]];
      }
      if (Object.keys(changes).length === 0) return group;
      await this.groups.save(group);
      await this.events.record(moderationActed('group.update', admin.id, { type: 'Group', id: group.id }, changes, reason));
      return group;
    });
  }
}

export class DeleteGroup {
  constructor(
    private readonly groups: GroupRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  /** Deletes it; a node that named it forgets it, and its right narrows to the groups left (contract §23). */
  async execute(actor: Actor, name: string, reason: string | null = null): Promise<void> {
    const admin = requireAdmin(actor);
    await this.uow.run(async () => {
      const group = await existingGroup(this.groups, name);
      const members = await this.groups.remove(group);
      const changes: AuditChanges = { name: [group.name, null] };
      await this.events.record(moderationActed('group.delete', admin.id, { type: 'Group', id: group.id }, changes, reason));
      if (members.length > 0) await this.events.record({ type: 'group.members_removed', groupId: group.id, userIds: members });
    });
  }
}

export class ChangeGroupMembers {
  constructor(
    private readonly groups: GroupRepository,
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  /**
   * Adds (or removes) the members named by `logins`; each change is one audit entry naming the member. Returns the
   * logins that changed (one already a member, or already not, is left as it is). An unknown login changes nothing:
   * 404 naming it.
   */
  async execute(
    actor: Actor,
    name: string,
    change: 'add' | 'remove',
    logins: readonly string[],
    reason: string | null = null,
  ): Promise<string[]> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const group = await existingGroup(this.groups, name);
      const members = new Map<number, string>();
      for (const login of logins) {
        const user = await this.users.findByLogin(login);
        if (!user) throw new NotFound(`user ${login}`);
        members.set(user.id, user.login);
      }
      const ids = [...members.keys()];
      const changed =
        change === 'add' ? await this.groups.addMembers(group.id, ids) : await this.groups.removeMembers(group.id, ids);
      if (change === 'remove' && changed.length > 0) {
        await this.events.record({ type: 'group.members_removed', groupId: group.id, userIds: changed });
      }
      for (const userId of changed) {
        const changes: AuditChanges = { member: change === 'add' ? [null, members.get(userId)] : [members.get(userId), null] };
        const action = change === 'add' ? 'group.add' : 'group.remove';
        await this.events.record(moderationActed(action, admin.id, { type: 'Group', id: group.id }, changes, reason));
      }
      return ids.filter((id) => changed.includes(id)).map((id) => members.get(id)!);
    });
  }
}
