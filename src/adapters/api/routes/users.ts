import Router, { type RouterMiddleware } from '@koa/router';
import { z } from 'zod';
import { requireUser } from '../../../application/actor.js';
import { PageParams } from '../../../application/inputs.js';
import type { UserReadModel } from '../../../application/read-models.js';
import { ActiveUsersParams, type ListActiveUsers, type ListBlockedUsers } from '../../../application/users/community.js';
import type { BlockUser, FollowUser, ShowUser } from '../../../application/users/manage-users.js';
import {
  type ListFollows,
  type ListUserFavorites,
  type ListUserReplies,
  type ListUserTopics,
  UserTopicsParams,
} from '../../../application/users/user-lists.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { actorOf } from '../auth.js';
import type { Params } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { OkSchema, ReplyDetailSchema, TopicSchema, UserDetailSchema, UserSchema } from '../../presentation/schemas.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const Ok = { schema: OkSchema, example: examples.ok, description: 'Done' };
const LoginPath = z.object({ login: z.string().meta({ description: 'a login, in any case', example: 'alice' }) });

/** What the user routes call. */
export interface UserRouteUseCases {
  users: UserReadModel;
  listActiveUsers: ListActiveUsers;
  listBlockedUsers: ListBlockedUsers;
  listUserTopics: ListUserTopics;
  listUserFavorites: ListUserFavorites;
  listUserReplies: ListUserReplies;
  listFollows: ListFollows;
  showUser: ShowUser;
  followUser: FollowUser;
  blockUser: BlockUser;
}
export const UserRouteUseCases = Symbol.for('UserRouteUseCases');

export function userRoutes(app: UserRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params as Params;

  const me: RouterMiddleware = async (ctx) => {
    const user = requireUser(await actorOf(ctx));
    const detail = await app.users.byId(user.id);
    if (!detail) throw new NotFound('user');
    ctx.body = { user: wire.userDetail(detail, user) };
  };
  for (const path of ['/hello', '/users/me']) {
    docs.route(
      router,
      prefix,
      {
        method: 'get',
        path,
        summary: path === '/hello' ? 'Who am I (a quick test of a token)' : 'The caller’s profile',
        tag: 'Users',
        access: 'user',
        response: {
          schema: z.strictObject({ user: UserDetailSchema }),
          example: { user: examples.userDetail },
          description: 'The caller',
        },
        errors: [],
      },
      me,
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users',
      summary: 'The most active users',
      description: 'Most replies in the last twelve months (by calendar month), then most topics; blocked users left out.',
      tag: 'Users',
      access: 'public',
      query: ActiveUsersParams,
      response: {
        schema: z.strictObject({ users: z.array(UserSchema) }),
        example: { users: [examples.user] },
        description: 'Users',
      },
      errors: [400],
    },
    async (ctx) => {
      const [users, viewer] = await Promise.all([app.listActiveUsers.execute(params(ctx)), actorOf(ctx)]);
      ctx.body = { users: users.map((user) => wire.user(user, viewer)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/:login/blocked',
      summary: 'The caller’s blocked users',
      description: 'Your own only (another login: 403), in the order you blocked them.',
      tag: 'Users',
      access: 'user',
      params: LoginPath,
      query: PageParams,
      response: {
        schema: z.strictObject({ blocked: z.array(UserSchema) }),
        example: { blocked: [examples.user] },
        description: 'Users',
      },
      errors: [400, 403, 404],
    },
    async (ctx) => {
      const actor = requireUser(await actorOf(ctx)); // authentication before parameters (contract §2)
      const users = await app.listBlockedUsers.execute(actor, ctx.params.login!, params(ctx));
      ctx.body = { blocked: users.map((user) => wire.user(user, actor)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/:login/topics',
      summary: 'A user’s topics',
      description: 'order: recent (default), likes or replies.',
      tag: 'Users',
      access: 'public',
      params: LoginPath,
      query: UserTopicsParams,
      response: {
        schema: z.strictObject({ topics: z.array(TopicSchema) }),
        example: { topics: [examples.topic] },
        description: 'Topics',
      },
      errors: [400, 404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const topics = await app.listUserTopics.execute(actor, ctx.params.login!, params(ctx));
      ctx.body = { topics: topics.map((topic) => wire.topic(topic, actor)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/:login/favorites',
      summary: 'A user’s favorite topics',
      description: 'Most recently favorited first.',
      tag: 'Users',
      access: 'public',
      params: LoginPath,
      query: PageParams,
      response: {
        schema: z.strictObject({ topics: z.array(TopicSchema) }),
        example: { topics: [examples.topic] },
        description: 'Topics',
      },
      errors: [400, 404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const topics = await app.listUserFavorites.execute(actor, ctx.params.login!, params(ctx));
      ctx.body = { topics: topics.map((topic) => wire.topic(topic, actor)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/:login/replies',
      summary: 'A user’s replies',
      description: 'Newest first; system events and deleted replies left out.',
      tag: 'Users',
      access: 'public',
      params: LoginPath,
      query: PageParams,
      response: {
        schema: z.strictObject({ replies: z.array(ReplyDetailSchema) }),
        example: { replies: [examples.replyDetail] },
        description: 'Replies',
      },
      errors: [400, 404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const replies = await app.listUserReplies.execute(actor, ctx.params.login!, params(ctx));
      ctx.body = { replies: replies.map((reply) => wire.replyDetail(reply, actor)) };
    },
  );

  for (const direction of ['followers', 'following'] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'get',
        path: `/users/:login/${direction}`,
        summary: direction === 'followers' ? 'Who follows a user' : 'Whom a user follows',
        description: 'Oldest relation first (homeland’s order).',
        tag: 'Users',
        access: 'public',
        params: LoginPath,
        query: PageParams,
        response: {
          schema: z.strictObject({ [direction]: z.array(UserSchema) }),
          example: { [direction]: [examples.user] },
          description: 'Users',
        },
        errors: [400, 404],
      },
      async (ctx) => {
        const [users, viewer] = await Promise.all([
          app.listFollows.execute(ctx.params.login!, direction, params(ctx)),
          actorOf(ctx),
        ]);
        ctx.body = { [direction]: users.map((user) => wire.user(user, viewer)) };
      },
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/:login',
      summary: 'A user’s profile',
      description: 'With the caller’s relation to the user (both false for anonymous callers).',
      tag: 'Users',
      access: 'public',
      params: LoginPath,
      response: {
        schema: z.strictObject({
          user: UserDetailSchema,
          meta: z.strictObject({ followed: z.boolean(), blocked: z.boolean() }),
        }),
        example: { user: examples.userDetail, meta: { followed: false, blocked: false } },
        description: 'The user',
      },
      errors: [404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const { user, meta } = await app.showUser.execute(actor, ctx.params.login!);
      ctx.body = { user: wire.userDetail(user, actor), meta };
    },
  );

  for (const [verb, on, summary] of [
    ['follow', true, 'Follow a user'],
    ['unfollow', false, 'Stop following a user'],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'post',
        path: `/users/:login/${verb}`,
        summary,
        description: 'Idempotent; following notifies the followee; yourself: ok, nothing changes.',
        tag: 'Users',
        access: 'user',
        params: LoginPath,
        response: Ok,
        errors: [404],
      },
      async (ctx) => {
        await app.followUser.execute(await actorOf(ctx), ctx.params.login!, on);
        ctx.body = OK;
      },
    );
  }
  for (const [verb, on, summary] of [
    ['block', true, 'Block a user'],
    ['unblock', false, 'Unblock a user'],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'post',
        path: `/users/:login/${verb}`,
        summary,
        description: 'Idempotent; a blocked user’s topics leave your topic list and their notifications stop; yourself: ok.',
        tag: 'Users',
        access: 'user',
        params: LoginPath,
        response: Ok,
        errors: [404],
      },
      async (ctx) => {
        await app.blockUser.execute(await actorOf(ctx), ctx.params.login!, on);
        ctx.body = OK;
      },
    );
  }

  return router;
}
