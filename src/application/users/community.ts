import { Forbidden, InvalidInput, NotFound } from '../../domain/shared/errors.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock } from '../ports.js';
import type { UserReadModel, UserView } from '../read-models.js';
import { pageLimit, pageOffset } from '../topics/list-topics.js';

export const ACTIVE_USERS_LIMIT = { min: 1, max: 100, default: 20 } as const;

/**
 * The most active users (contract §7: `GET /users`): most replies in the last twelve months (by calendar month,
 * this one included), then most topics. Read from per-month counts kept with every reply: current, no job.
 */
export class ListActiveUsers {
  constructor(
    private readonly users: UserReadModel,
    private readonly clock: Clock,
  ) {}

  execute(input: { limit?: number }): Promise<UserView[]> {
    const limit = input.limit ?? ACTIVE_USERS_LIMIT.default;
    if (!Number.isInteger(limit) || limit < ACTIVE_USERS_LIMIT.min || limit > ACTIVE_USERS_LIMIT.max) {
      throw new InvalidInput('limit', `limit must be between ${ACTIVE_USERS_LIMIT.min} and ${ACTIVE_USERS_LIMIT.max}`);
    }
    const now = this.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
    return this.users.mostActive(since, limit);
  }
}

/** A user's own block list (`GET /users/:login/blocked`): nobody else's, administrators included. Paged like every list. */
export class ListBlockedUsers {
  constructor(private readonly users: UserReadModel) {}

  async execute(actor: Actor, login: string, input: { offset?: number; limit?: number } = {}): Promise<UserView[]> {
    const caller = requireUser(actor);
    const user = await this.users.byLogin(login);
    if (!user) throw new NotFound('user');
    if (user.id !== caller.id) throw new Forbidden();
    return this.users.blockedBy(user.id, { offset: pageOffset(input.offset), limit: pageLimit(input.limit) });
  }
}
