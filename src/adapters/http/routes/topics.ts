import Router, { type RouterContext } from '@koa/router';
import { z } from 'zod';
import { NotFound } from '../../../domain/shared/errors.js';
import type { UseCases } from '../../../application/use-cases.js';
import { actorOf } from '../auth.js';
import { type Params, param, parseParams, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';

const listQuery = z.object({
  type: param.optionalText,
  node_id: param.optionalId,
  offset: param.optionalInteger,
  limit: param.optionalInteger,
});

export function topicRoutes(app: UseCases, wire: Wire): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  async function detail(id: number, ctx: RouterContext) {
    const actor = actorOf(ctx);
    const topic = await app.topics.detail(id, actor);
    if (!topic) throw new NotFound('topic');
    return { topic: wire.topicDetail(topic, actor) };
  }

  router.get('/topics', async (ctx) => {
    const query = parseParams(listQuery, params(ctx));
    const actor = actorOf(ctx);
    const topics = await app.listTopics.execute(actor, {
      type: query.type,
      nodeId: query.node_id,
      offset: query.offset,
      limit: query.limit,
    });
    ctx.body = { topics: topics.map((topic) => wire.topic(topic, actor)) };
  });

  router.get('/topics/:id', async (ctx) => {
    const actor = actorOf(ctx);
    // HEAD is safe by definition: it looks without reading, so it counts no hit and marks nothing read.
    if (ctx.method === 'HEAD') {
      ctx.body = { ...(await detail(pathId(ctx.params.id), ctx)), meta: {} };
      return;
    }
    const { topic, meta } = await app.showTopic.execute(actor, pathId(ctx.params.id));
    ctx.body = { topic: wire.topicDetail(topic, actor), meta };
  });

  router.post('/topics', async (ctx) => {
    const { title, body, node_id } = params(ctx);
    const id = await app.createTopic.execute(actorOf(ctx), { title, body, nodeId: node_id });
    ctx.body = await detail(id, ctx);
  });

  // homeland's routes take POST, PUT and PATCH alike for an update.
  router.post('/topics/:id', updateTopic).put('/topics/:id', updateTopic).patch('/topics/:id', updateTopic);
  async function updateTopic(ctx: RouterContext) {
    const { title, body, node_id } = params(ctx);
    const id = pathId(ctx.params.id);
    await app.updateTopic.execute(actorOf(ctx), { id, title, body, nodeId: node_id });
    ctx.body = await detail(id, ctx);
  }

  router.delete('/topics/:id', async (ctx) => {
    await app.deleteTopic.execute(actorOf(ctx), pathId(ctx.params.id));
    ctx.body = OK;
  });

  for (const [verb, on] of [
    ['follow', true],
    ['unfollow', false],
  ] as const) {
    router.post(`/topics/:id/${verb}`, async (ctx) => {
      await app.followTopic.execute(actorOf(ctx), pathId(ctx.params.id), on);
      ctx.body = OK;
    });
  }
  for (const [verb, on] of [
    ['favorite', true],
    ['unfavorite', false],
  ] as const) {
    router.post(`/topics/:id/${verb}`, async (ctx) => {
      await app.favoriteTopic.execute(actorOf(ctx), pathId(ctx.params.id), on);
      ctx.body = OK;
    });
  }

  router.post('/topics/:id/ban', async (ctx) => {
    await app.topicAction.execute(actorOf(ctx), pathId(ctx.params.id), 'ban');
    ctx.body = OK;
  });

  router.post('/topics/:id/action', async (ctx) => {
    await app.topicAction.execute(actorOf(ctx), pathId(ctx.params.id), params(ctx).type);
    ctx.body = OK;
  });

  return router;
}
