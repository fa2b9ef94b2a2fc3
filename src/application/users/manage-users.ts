import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { Role } from '../../domain/users/role.js';
import type { User } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser, SYSTEM_LOGIN } from '../actor.js';
import type { Clock, UnitOfWork } from '../ports.js';

export async function loadUserByLogin(users: UserRepository, login: string): Promise<User> {
  const user = await users.findByLogin(login);
  if (!user) throw new NotFound('user');
  return user;
}

/** An administrator changes a user's role; the built-in system moderator keeps its own. */
export class ChangeRole {
  constructor(
    private readonly users: UserRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, login: string, role: Role): Promise<void> {
    const admin = requireUser(actor);
    await this.uow.run(async () => {
      const user = await loadUserByLogin(this.users, login);
      if (admin.role !== 'admin') throw new Forbidden();
      if (user.login === SYSTEM_LOGIN) throw new RuleViolated('Validation failed: the system user keeps its role');
      user.changeRole(role, this.clock.now());
    });
  }
}

/** A user's own block list of nodes: topics there leave their default topic list. Idempotent. */
export class BlockNode {
  constructor(
    private readonly users: UserRepository,
    private readonly nodes: NodeRepository,
  ) {}

  async execute(userId: number, nodeId: number, block: boolean): Promise<void> {
    if (!(await this.nodes.findById(nodeId))) throw new NotFound('node');
    await (block ? this.users.blockNode(userId, nodeId) : this.users.unblockNode(userId, nodeId));
  }
}

/** A user's own block list of users: their topics leave the default topic list. Idempotent. */
export class BlockUser {
  constructor(private readonly users: UserRepository) {}

  async execute(userId: number, otherLogin: string, block: boolean): Promise<void> {
    const other = await loadUserByLogin(this.users, otherLogin);
    if (other.id === userId) throw new RuleViolated('Validation failed: a user cannot block themselves');
    await (block ? this.users.blockUser(userId, other.id) : this.users.unblockUser(userId, other.id));
  }
}
