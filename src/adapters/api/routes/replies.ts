import Router, { type RouterContext } from '@koa/router';
import { z } from 'zod';
import { readReason } from '../../../application/inputs.js';
import { type LikeObject, LikeParams } from '../../../application/likes/like.js';
import type { ReplyReadModel } from '../../../application/read-models.js';
import { type CreateReply, CreateReplyParams } from '../../../application/replies/create-reply.js';
import type { DeleteReply } from '../../../application/replies/delete-reply.js';
import { type ListReplies, ListRepliesParams } from '../../../application/replies/list-replies.js';
import { type UpdateReply, UpdateReplyParams } from '../../../application/replies/update-reply.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { actorOf, callerRefOf, identify } from '../auth.js';
import { type Params, IdPath, pathId, ReasonQuery } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { LikeResultSchema, OkSchema, ReplyDetailSchema, ReplySchema } from '../../presentation/schemas.js';
import { type ApiDescription, documented } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const replyBody = { body: { description: 'Markdown', example: 'Yes: `offset` and `limit`.' } };
const CreateReplyBody = documented(CreateReplyParams, replyBody);
const UpdateReplyBody = documented(UpdateReplyParams, replyBody);
const ReplyResponse = z.strictObject({ reply: ReplyDetailSchema });

/** What the reply and like routes call. */
export interface ReplyRouteUseCases {
  replies: ReplyReadModel;
  listReplies: ListReplies;
  createReply: CreateReply;
  updateReply: UpdateReply;
  deleteReply: DeleteReply;
  like: LikeObject;
}
export const ReplyRouteUseCases = Symbol.for('ReplyRouteUseCases');

export function replyRoutes(app: ReplyRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  async function detail(id: number, ctx: RouterContext) {
    const actor = await actorOf(ctx);
    const reply = await app.replies.detail(id, actor);
    if (!reply) throw new NotFound('reply');
    return { reply: wire.replyDetail(reply, actor) };
  }

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/topics/:id/replies',
      summary: 'List a topic’s replies',
      description:
        'By id, with deleted replies (deleted: true, no text) and system events in place: floors stay stable. For a ' +
        'signed-in caller, reads the topic up to the last reply returned (their read_state; it only moves forward).',
      tag: 'Replies',
      access: 'public',
      params: IdPath,
      query: ListRepliesParams,
      response: {
        schema: z.strictObject({
          replies: z.array(ReplySchema),
          meta: z.strictObject({ user_liked_reply_ids: z.array(z.number().int()) }),
        }),
        example: { replies: [examples.reply], meta: { user_liked_reply_ids: [] } },
        description: 'A page of replies, and those of them the caller liked',
      },
      errors: [400, 404],
    },
    async (ctx) => {
      const input = { ...params(ctx), topicId: pathId(ctx.params.id) };
      const { viewer, result } = await app.listReplies.execute(callerRefOf(ctx), input);
      identify(ctx, viewer);
      ctx.body = {
        replies: result.replies.map((reply) => wire.reply(reply, viewer)),
        meta: { user_liked_reply_ids: result.likedReplyIds },
      };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/topics/:id/replies',
      summary: 'Reply to a topic',
      description:
        'Checked in the source’s order: token, topic, body, permission (blocked users: 403), then the rules (a closed topic: 400 RecordInvalid).',
      tag: 'Replies',
      access: 'user',
      params: IdPath,
      body: { schema: CreateReplyBody, media: ['json', 'form', 'multipart'] },
      response: { schema: ReplyResponse, example: { reply: examples.replyDetail }, description: 'The new reply' },
      errors: [400, 403, 404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const created = await app.createReply.execute(actor, { topicId: pathId(ctx.params.id), body: params(ctx).body });
      ctx.body = { reply: wire.newReply(created, actor) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/replies/:id',
      summary: 'Read a reply',
      description: 'A deleted reply, or a reply of a deleted topic, is 404.',
      tag: 'Replies',
      access: 'public',
      params: IdPath,
      response: { schema: ReplyResponse, example: { reply: examples.replyDetail }, description: 'The reply' },
      errors: [404],
    },
    async (ctx) => {
      ctx.body = await detail(pathId(ctx.params.id), ctx);
    },
  );

  // homeland's routes take POST, PUT and PATCH alike for an update.
  for (const method of ['post', 'put', 'patch'] as const) {
    docs.route(
      router,
      prefix,
      {
        method,
        path: '/replies/:id',
        summary: 'Update a reply',
        description: 'The author or an administrator (checked before the parameter).',
        tag: 'Replies',
        access: 'user',
        params: IdPath,
        body: { schema: UpdateReplyBody, media: ['json', 'form', 'multipart'] },
        response: { schema: ReplyResponse, example: { reply: examples.replyDetail }, description: 'The updated reply' },
        errors: [400, 403, 404],
      },
      async (ctx) => {
        const id = pathId(ctx.params.id);
        await app.updateReply.execute(await actorOf(ctx), { id, body: params(ctx).body });
        ctx.body = await detail(id, ctx);
      },
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/replies/:id',
      summary: 'Delete a reply',
      description: 'Soft; the topic’s counters and last-reply fields are recomputed.',
      tag: 'Replies',
      access: 'user',
      params: IdPath,
      query: ReasonQuery,
      response: { schema: OkSchema, example: examples.ok, description: 'Done' },
      errors: [400, 403, 404],
    },
    async (ctx) => {
      await app.deleteReply.execute(await actorOf(ctx), pathId(ctx.params.id), readReason(params(ctx).reason));
      ctx.body = OK;
    },
  );

  for (const [method, like] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method,
        path: '/likes',
        summary: like ? 'Like a topic or reply' : 'Take a like back',
        description: 'Idempotent; liking your own is ignored. Blocked users may like.',
        tag: 'Replies',
        access: 'user',
        body: { schema: LikeParams, media: ['json', 'form', 'multipart'] },
        response: {
          schema: LikeResultSchema,
          example: { obj_type: 'topic', obj_id: 42, count: 3 },
          description: 'The object and its like count',
        },
        errors: [400, 404],
      },
      async (ctx) => {
        const { obj_type, obj_id } = params(ctx);
        ctx.body = await app.like.execute(await actorOf(ctx), { type: obj_type, id: obj_id }, like);
      },
    );
  }

  return router;
}
