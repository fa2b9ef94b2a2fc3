import Router, { type RouterMiddleware } from '@koa/router';
import { requireUser } from '../../../application/actor.js';
import type { UseCases } from '../../../application/use-cases.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { actorOf } from '../auth.js';
import { z } from 'zod';
import { type Params, param, parseParams, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';

export function nodeRoutes(app: UseCases, wire: Wire): Router {
  const router = new Router();

  router.get('/nodes', async (ctx) => {
    ctx.body = { nodes: (await app.nodes.list()).map((node) => wire.node(node)) };
  });

  router.get('/nodes/:id', async (ctx) => {
    const node = await app.nodes.get(pathId(ctx.params.id));
    if (!node) throw new NotFound('node');
    ctx.body = { node: wire.node(node) };
  });

  for (const [verb, block] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    router.post(`/nodes/:id/${verb}`, async (ctx) => {
      await app.blockNode.execute(actorOf(ctx), pathId(ctx.params.id), block);
      ctx.body = OK;
    });
  }

  return router;
}

export function userRoutes(app: UseCases, wire: Wire): Router {
  const router = new Router();

  const me: RouterMiddleware = async (ctx) => {
    const user = requireUser(actorOf(ctx));
    const detail = await app.users.byId(user.id);
    if (!detail) throw new NotFound('user');
    ctx.body = { user: wire.userDetail(detail, user) };
  };
  router.get('/hello', me);
  router.get('/users/me', me);

  const listQuery = z.object({ offset: param.optionalInteger, limit: param.optionalInteger, order: param.optionalText });
  const page = (ctx: { state: { params: Params } }) => parseParams(listQuery, ctx.state.params);

  /** The most active users (contract §7). */
  router.get('/users', async (ctx) => {
    const { limit } = parseParams(z.object({ limit: param.optionalInteger }), ctx.state.params as Params);
    ctx.body = { users: (await app.listActiveUsers.execute({ limit })).map((user) => wire.user(user)) };
  });

  router.get('/users/:login/blocked', async (ctx) => {
    const actor = requireUser(actorOf(ctx)); // authentication before parameters (contract §2)
    const users = await app.listBlockedUsers.execute(actor, ctx.params.login!, page(ctx));
    ctx.body = { blocked: users.map((user) => wire.user(user)) };
  });

  router.get('/users/:login/topics', async (ctx) => {
    const actor = actorOf(ctx);
    const topics = await app.listUserTopics.execute(actor, ctx.params.login!, page(ctx));
    ctx.body = { topics: topics.map((topic) => wire.topic(topic, actor)) };
  });

  router.get('/users/:login/favorites', async (ctx) => {
    const actor = actorOf(ctx);
    const topics = await app.listUserFavorites.execute(actor, ctx.params.login!, page(ctx));
    ctx.body = { topics: topics.map((topic) => wire.topic(topic, actor)) };
  });

  router.get('/users/:login/replies', async (ctx) => {
    const actor = actorOf(ctx);
    const replies = await app.listUserReplies.execute(ctx.params.login!, page(ctx));
    ctx.body = { replies: replies.map((reply) => wire.replyDetail(reply, actor)) };
  });

  for (const direction of ['followers', 'following'] as const) {
    router.get(`/users/:login/${direction}`, async (ctx) => {
      const users = await app.listFollows.execute(ctx.params.login!, direction, page(ctx));
      ctx.body = { [direction]: users.map((user) => wire.user(user)) };
    });
  }

  router.get('/users/:login', async (ctx) => {
    const actor = actorOf(ctx);
    const { user, meta } = await app.showUser.execute(actor, ctx.params.login!);
    ctx.body = { user: wire.userDetail(user, actor), meta };
  });

  for (const [verb, on] of [
    ['follow', true],
    ['unfollow', false],
  ] as const) {
    router.post(`/users/:login/${verb}`, async (ctx) => {
      await app.followUser.execute(actorOf(ctx), ctx.params.login!, on);
      ctx.body = OK;
    });
  }
  for (const [verb, on] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    router.post(`/users/:login/${verb}`, async (ctx) => {
      await app.blockUser.execute(actorOf(ctx), ctx.params.login!, on);
      ctx.body = OK;
    });
  }

  return router;
}
