import Router, { type RouterContext } from '@koa/router';
import { z } from 'zod';
import type { UseCases } from '../../../application/use-cases.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { actorOf } from '../auth.js';
import { type Params, param, parseParams, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';

const pageQuery = z.object({ offset: param.optionalInteger, limit: param.optionalInteger });

export function replyRoutes(app: UseCases, wire: Wire): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  async function detail(id: number, ctx: RouterContext) {
    const reply = await app.replies.detail(id);
    if (!reply) throw new NotFound('reply');
    return { reply: wire.replyDetail(reply, actorOf(ctx)) };
  }

  router.get('/topics/:id/replies', async (ctx) => {
    const page = parseParams(pageQuery, params(ctx));
    const actor = actorOf(ctx);
    const { replies, likedReplyIds } = await app.listReplies.execute(actor, { topicId: pathId(ctx.params.id), ...page });
    ctx.body = { replies: replies.map((reply) => wire.reply(reply, actor)), meta: { user_liked_reply_ids: likedReplyIds } };
  });

  router.post('/topics/:id/replies', async (ctx) => {
    const id = await app.createReply.execute(actorOf(ctx), { topicId: pathId(ctx.params.id), body: params(ctx).body });
    ctx.body = await detail(id, ctx);
  });

  router.get('/replies/:id', async (ctx) => {
    ctx.body = await detail(pathId(ctx.params.id), ctx);
  });

  // homeland's routes take POST, PUT and PATCH alike for an update.
  router.post('/replies/:id', updateReply).put('/replies/:id', updateReply).patch('/replies/:id', updateReply);
  async function updateReply(ctx: RouterContext) {
    const id = pathId(ctx.params.id);
    await app.updateReply.execute(actorOf(ctx), { id, body: params(ctx).body });
    ctx.body = await detail(id, ctx);
  }

  router.delete('/replies/:id', async (ctx) => {
    await app.deleteReply.execute(actorOf(ctx), pathId(ctx.params.id));
    ctx.body = OK;
  });

  for (const [method, like] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    router[method]('/likes', async (ctx) => {
      const { obj_type, obj_id } = params(ctx);
      ctx.body = await app.like.execute(actorOf(ctx), { type: obj_type, id: obj_id }, like);
    });
  }

  return router;
}
