import Router from '@koa/router';
import { z } from 'zod';
import { FlagParams, type FlagPost } from '../../../application/review/flag-post.js';
import {
  type ListReviewItems,
  ListReviewParams,
  type ResolveReview,
  ResolveReviewParams,
  type ShowReviewItem,
} from '../../../application/review/review-queue.js';
import { actorOf } from '../auth.js';
import { type Params, IdPath, pathId, ReasonParam } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { OkSchema, ReviewItemSchema } from '../../presentation/schemas.js';
import { type ApiDescription, documented } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

/** What the flag and review routes call (contract §18). */
export interface ReviewRouteUseCases {
  flagPost: FlagPost;
  listReviewItems: ListReviewItems;
  showReviewItem: ShowReviewItem;
  resolveReview: ResolveReview;
}
export const ReviewRouteUseCases = Symbol.for('ReviewRouteUseCases');

const FlagBody = documented(FlagParams, {
  reason: { description: 'why: spam, inappropriate, off_topic or other' },
  message: { example: 'links to a pharmacy' },
});
const ResolveBody = documented(ResolveReviewParams, {
  action: {
    description:
      'agree (delete the post), disagree (show it again), approve or reject (a held post), spammer (delete every ' +
      'post of the author, block the account and end its tokens)',
  },
}).extend({ reason: ReasonParam });
const Ok = { schema: OkSchema, example: examples.ok, description: 'Done' };
const ItemResponse = z.strictObject({ item: ReviewItemSchema });

export function reviewRoutes(app: ReviewRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  for (const type of ['topic', 'reply'] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'post',
        path: `/${type === 'topic' ? 'topics' : 'replies'}/:id/flag`,
        summary: `Flag a ${type}`,
        description:
          'Once per person and post (again, with any reason, is a no-op); not your own post (400 RecordInvalid). ' +
          'Flagged by FLAG_HIDE_THRESHOLD people, or once by an administrator, the post is hidden until it is reviewed.',
        tag: 'Review',
        access: 'user',
        params: IdPath,
        body: { schema: FlagBody, media: ['json', 'form', 'multipart'] },
        response: Ok,
        errors: [400, 404],
      },
      async (ctx) => {
        await app.flagPost.execute(await actorOf(ctx), { type, id: pathId(ctx.params.id) }, params(ctx));
        ctx.body = OK;
      },
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/admin/review',
      summary: 'The review queue',
      description:
        'One item per flagged post (gathering every flag on it) or held post. Pending items oldest first; resolved ' +
        'ones most recently resolved first. Administrators; a node’s moderators see the items of posts in their nodes.',
      tag: 'Review',
      access: 'user',
      query: ListReviewParams,
      response: {
        schema: z.strictObject({ items: z.array(ReviewItemSchema) }),
        example: { items: [examples.reviewItem] },
        description: 'A page of items',
      },
      errors: [400, 403],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const items = await app.listReviewItems.execute(actor, params(ctx));
      ctx.body = { items: items.map((item) => wire.reviewItem(item, actor)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/admin/review/:id',
      summary: 'One item of the review queue',
      description: 'Administrators; a node’s moderators, for a post in their nodes (404 otherwise).',
      tag: 'Review',
      access: 'user',
      params: IdPath,
      response: { schema: ItemResponse, example: { item: examples.reviewItem }, description: 'The item' },
      errors: [403, 404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      ctx.body = { item: wire.reviewItem(await app.showReviewItem.execute(actor, pathId(ctx.params.id)), actor) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/admin/review/:id',
      summary: 'Resolve an item of the review queue',
      description:
        'Once: a resolved item answers 400 RecordInvalid, as does an action meant for the other kind of item (agree ' +
        'and disagree for flags, approve and reject for holds, spammer for both). Audited, with `reason`. ' +
        'Administrators; a node’s moderators for a post in their nodes, neither spammer nor silence_days (403).',
      tag: 'Review',
      access: 'user',
      params: IdPath,
      body: { schema: ResolveBody, media: ['json', 'form', 'multipart'] },
      response: Ok,
      errors: [400, 403, 404],
    },
    async (ctx) => {
      await app.resolveReview.execute(await actorOf(ctx), pathId(ctx.params.id), params(ctx));
      ctx.body = OK;
    },
  );

  return router;
}
