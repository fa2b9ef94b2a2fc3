import { z } from 'zod';
import { Forbidden, NotFound } from '../../domain/shared/errors.js';
import { PageParams, limit, readAll } from '../inputs.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock } from '../ports.js';
import type { UserReadModel, UserView } from '../read-models.js';

/** `GET /users` lists up to 100 (contract §7). */
export const ActiveUsersLimit = limit(1, 100, 20);
/** The parameters of `GET /users`, as they are read (and documented). */
export const ActiveUsersParams = z.object({ limit: ActiveUsersLimit });

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
    const { limit: count } = readAll(ActiveUsersParams, input);
    const now = this.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
    return this.users.mostActive(since, count);
  }
}

/**
 * A user's own block list (`GET /users/:login/blocked`): nobody else's, administrators included. Paged like every
 * list (PageParams), the page read after authentication and before the user (contract §2).
 */
export class ListBlockedUsers {
  constructor(private readonly users: UserReadModel) {}

  async execute(actor: Actor, login: string, input: { offset?: unknown; limit?: unknown } = {}): Promise<UserView[]> {
    const caller = requireUser(actor);
    const page = readAll(PageParams, input);
    const user = await this.users.byLogin(login);
    if (!user) throw new NotFound('user');
    if (user.id !== caller.id) throw new Forbidden();
    return this.users.blockedBy(user.id, page);
  }
}
