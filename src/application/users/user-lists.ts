import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import type { Actor } from '../actor.js';
import type {
  FollowDirection,
  Page,
  ReplyDetailView,
  ReplyReadModel,
  TopicReadModel,
  TopicView,
  UserReadModel,
  UserView,
} from '../read-models.js';
import { USER_TOPIC_ORDERS } from '../read-models.js';
import { PageParams, oneOfOr, read, readAll } from '../inputs.js';

/**
 * The lists of a user's profile (contract §7): offset and limit 1..150 like every list (PageParams, read before
 * the user); an unknown login is 404.
 */

export interface UserListInput {
  offset?: unknown;
  limit?: unknown;
}

async function resolve(users: UserReadModel, login: string, input: UserListInput): Promise<{ userId: number; page: Page }> {
  const page = readAll(PageParams, input);
  const user = await users.byLogin(login);
  if (!user) throw new NotFound('user');
  return { userId: user.id, page };
}

/** The order of a user's topics; an unknown one lists by recency, as an unknown topic list type does. */
export const UserTopicOrderInput = oneOfOr(USER_TOPIC_ORDERS, 'recent');
/** The parameters of a user's topics, as they are read (and documented). */
export const UserTopicsParams = z.object({ order: UserTopicOrderInput, ...PageParams.shape });

export class ListUserTopics {
  constructor(
    private readonly users: UserReadModel,
    private readonly topics: TopicReadModel,
  ) {}

  async execute(actor: Actor, login: string, input: UserListInput & { order?: unknown }): Promise<TopicView[]> {
    const { userId, page } = await resolve(this.users, login, input);
    return this.topics.byUser(userId, read(UserTopicsParams.shape.order, input.order, 'order'), page, actor);
  }
}

export class ListUserFavorites {
  constructor(
    private readonly users: UserReadModel,
    private readonly topics: TopicReadModel,
  ) {}

  async execute(actor: Actor, login: string, input: UserListInput): Promise<TopicView[]> {
    const { userId, page } = await resolve(this.users, login, input);
    return this.topics.favoritesOf(userId, page, actor);
  }
}

export class ListUserReplies {
  constructor(
    private readonly users: UserReadModel,
    private readonly replies: ReplyReadModel,
  ) {}

  async execute(actor: Actor, login: string, input: UserListInput): Promise<ReplyDetailView[]> {
    const { userId, page } = await resolve(this.users, login, input);
    return this.replies.byUser(userId, page, actor);
  }
}

export class ListFollows {
  constructor(private readonly users: UserReadModel) {}

  /** `followers`: who follows the user; `following`: whom the user follows. */
  async execute(login: string, direction: FollowDirection, input: UserListInput): Promise<UserView[]> {
    const { userId, page } = await resolve(this.users, login, input);
    return this.users.follows(userId, direction, page);
  }
}
