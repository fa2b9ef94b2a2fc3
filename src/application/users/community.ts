import { Forbidden, NotFound } from '../../domain/shared/errors.js';
import { limit, read, readPage } from '../inputs.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock } from '../ports.js';
import type { UserReadModel, UserView } from '../read-models.js';

/** `GET /users` lists up to 100 (contract §7). */
export const ActiveUsersLimit = limit(1, 100, 20);

/**
 * The most active users (contract §7: `GET /users`): most replies in the last twelve months (by calendar month,
 * this one included), then most topics. Read from per-month counts kept with every reply: current, no job.
 */
export class ListActiveUsers {
  constructor(
    private readonly users: UserReadModel,
    private readonly clock: Clock,
  ) {}

  execute(input: { limit?: unknown }): Promise<UserView[]> {
    const count = read(ActiveUsersLimit, input.limit, 'limit');
    const now = this.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
    return this.users.mostActive(since, count);
  }
}

/** A user's own block list (`GET /users/:login/blocked`): nobody else's, administrators included. Paged like every list. */
export class ListBlockedUsers {
  constructor(private readonly users: UserReadModel) {}

  async execute(actor: Actor, login: string, input: { offset?: unknown; limit?: unknown } = {}): Promise<UserView[]> {
    const caller = requireUser(actor);
    const user = await this.users.byLogin(login);
    if (!user) throw new NotFound('user');
    if (user.id !== caller.id) throw new Forbidden();
    return this.users.blockedBy(user.id, readPage(input));
  }
}
