import { readableNode } from '../nodes/readable.js';
import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { moderationActed } from '../../domain/events.js';
import type { DomainEvents } from '../events.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { Role } from '../../domain/users/role.js';
import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser, SYSTEM_LOGIN } from '../actor.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { UserDetailView, UserReadModel, UserRelationView } from '../read-models.js';

export async function loadUserByLogin(users: UserRepository, login: string): Promise<User> {
  const user = await users.findByLogin(login);
  if (!user) throw new NotFound('user');
  return user;
}

/** An administrator changes a user's role; the built-in system moderator keeps its own. */
export class ChangeRole {
  constructor(
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, login: string, role: Role, reason: string | null = null): Promise<void> {
    const admin = requireUser(actor);
    await this.uow.run(async () => {
      const user = await loadUserByLogin(this.users, login);
      if (admin.role !== 'admin') throw new Forbidden();
      if (user.login === SYSTEM_LOGIN) throw new RuleViolated('Validation failed: the system user keeps its role');
      const from = user.role;
      user.changeRole(role, this.clock.now());
      if (from !== role) {
        await this.events.record({ type: 'user.role_changed', userId: user.id, from, to: role, actorId: admin.id });
        await this.events.record(
          moderationActed('user.role', admin.id, { type: 'User', id: user.id }, { role: [from, role] }, reason),
        );
      }
    });
  }
}

/**
 * A user's profile, with the viewer's relation to them (`followed`, `blocked`; both false when anonymous), and their
 * topics_count as the viewer may see it (contract §23: what is in a node they may not read is not counted).
 */
export class ShowUser {
  constructor(private readonly users: UserReadModel) {}

  async execute(actor: Actor, login: string): Promise<{ user: UserDetailView; meta: UserRelationView }> {
    const found = await this.users.byLogin(login);
    if (!found) throw new NotFound('user');
    const [meta, unseen] = await Promise.all([
      actor ? this.users.relation(actor.id, found.id) : { followed: false, blocked: false },
      this.users.topicsUnseenBy(found.id, actor),
    ]);
    return { user: { ...found, topicsCount: found.topicsCount - unseen }, meta };
  }
}

/**
 * Follow or unfollow a user: idempotent; counters move and the followee hears of it only on a real change.
 * Following yourself changes nothing and is no error (homeland answers ok; clients show the button everywhere).
 */
export class FollowUser {
  constructor(
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, login: string, follow: boolean): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const other = await loadUserByLogin(this.users, login);
      if (other.id === user.id) return;
      const changed = await (follow ? this.users.follow(user.id, other.id) : this.users.unfollow(user.id, other.id));
      if (!changed) return;
      await this.events.record({ type: follow ? 'user.followed' : 'user.unfollowed', followerId: user.id, followeeId: other.id });
    });
  }
}

/** The actor's own block list of nodes: topics there leave their default topic list. Idempotent. */
export class BlockNode {
  constructor(
    private readonly users: UserRepository,
    private readonly nodes: NodeRepository,
  ) {}

  async execute(actor: Actor, nodeId: number, block: boolean): Promise<void> {
    const user = requireUser(actor);
    await readableNode(this.nodes, nodeId, user);
    await (block ? this.users.blockNode(user.id, nodeId) : this.users.unblockNode(user.id, nodeId));
  }
}

/**
 * The actor's own block list of users: their topics leave the default topic list, their notifications stop.
 * Idempotent; blocking yourself changes nothing and is no error.
 */
export class BlockUser {
  constructor(private readonly users: UserRepository) {}

  async execute(actor: Actor, otherLogin: string, block: boolean): Promise<void> {
    const user = requireUser(actor);
    const other = await loadUserByLogin(this.users, otherLogin);
    if (other.id === user.id) return;
    await (block ? this.users.blockUser(user.id, other.id) : this.users.unblockUser(user.id, other.id));
  }
}
