import Router, { type RouterContext } from '@koa/router';
import { z } from 'zod';
import { NotFound } from '../../../domain/shared/errors.js';
import { readAll, readReason } from '../../../application/inputs.js';
import type { TopicReadModel } from '../../../application/read-models.js';
import { type CreateTopic, CreateTopicParams } from '../../../application/topics/create-topic.js';
import type { DeleteTopic } from '../../../application/topics/delete-topic.js';
import { type ListTopics, ListTopicsParams } from '../../../application/topics/list-topics.js';
import type { ShowTopic } from '../../../application/topics/show-topic.js';
import {
  type CountUnreadTopics,
  type MarkAllTopicsRead,
  MarkAllReadParams,
  type MarkTopicRead,
  MarkReadParams,
} from '../../../application/topics/read-state.js';
import { type TopicAction, TopicActionParams } from '../../../application/topics/topic-action.js';
import type { FavoriteTopic, FollowTopic } from '../../../application/topics/topic-relations.js';
import { type UpdateTopic, UpdateTopicParams } from '../../../application/topics/update-topic.js';
import { actorOf, callerRefOf, identify } from '../auth.js';
import { type Params, IdPath, pathId, ReasonParam, ReasonQuery } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { OkSchema, TopicDetailSchema, TopicMetaSchema, TopicSchema } from '../../presentation/schemas.js';
import { type ApiDescription, documented } from '../openapi/describe.js';
import type { FrontPageCache } from '../../presentation/front-page-cache.js';
import { servedFromFrontPage } from '../front-page-cache.js';
import { examples } from '../openapi/examples.js';

const ListQuery = documented(ListTopicsParams, {
  type: {
    description:
      'the ordering (an unknown one is last_actived); unread and new are the caller’s own: the topics they opened ' +
      'that have replies they have yet to read, and those of the last 14 days they never opened (signed in only)',
  },
  node_id: { description: 'only this node’s topics (hidden or not, without block filters)' },
});

const topicBody = {
  title: { example: 'How do I paginate topics?' },
  body: {
    description:
      'Markdown. Raw HTML in it is kept when on the allow-list, dropped otherwise (its text stays): p br img h1–h6 ' +
      'blockquote pre code b i del strong em table thead tbody tr td th strike u a ul ol li span hr; class, id, lang ' +
      'and title on any of them, href, rel, target and data-floor on links, src, alt, width and height on images; ' +
      'only http, https, mailto or relative URLs',
    example: 'Is there an `offset`?',
  },
};
const TopicBody = documented(CreateTopicParams, topicBody);
/** `reason` is read by the route (readReason), like every moderation endpoint's. */
const UpdateTopicBody = documented(UpdateTopicParams, topicBody).extend({ reason: ReasonParam });
const ActionQuery = TopicActionParams.extend({ reason: ReasonParam });

const TopicResponse = z.strictObject({ topic: TopicDetailSchema });
const Ok = { schema: OkSchema, example: examples.ok, description: 'Done' };

/** What the topic routes call. */
export interface TopicRouteUseCases {
  topics: TopicReadModel;
  listTopics: ListTopics;
  countUnreadTopics: CountUnreadTopics;
  markTopicRead: MarkTopicRead;
  markAllTopicsRead: MarkAllTopicsRead;
  showTopic: ShowTopic;
  createTopic: CreateTopic;
  updateTopic: UpdateTopic;
  deleteTopic: DeleteTopic;
  followTopic: FollowTopic;
  favoriteTopic: FavoriteTopic;
  topicAction: TopicAction;
}
export const TopicRouteUseCases = Symbol.for('TopicRouteUseCases');

export function topicRoutes(
  app: TopicRouteUseCases,
  wire: Wire,
  docs: ApiDescription,
  prefix: string,
  frontPage?: FrontPageCache,
): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;
  /** The list's parameters, read once a request (the front-page cache reads them too, before the route). */
  const listQuery = (ctx: { state: { params: Params; listQuery?: z.output<typeof ListTopicsParams> } }) =>
    (ctx.state.listQuery ??= readAll(ListTopicsParams, params(ctx)));

  async function detail(id: number, ctx: RouterContext) {
    const actor = await actorOf(ctx);
    const topic = await app.topics.detail(id, actor);
    if (!topic) throw new NotFound('topic');
    return { topic: wire.topicDetail(topic, actor) };
  }

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/topics',
      summary: 'List topics',
      description:
        'Without node_id: anonymous callers do not see hidden nodes; users do not see their blocked nodes and users. ' +
        'For a signed-in caller, each topic says where they left off (read_state).',
      tag: 'Topics',
      access: 'public',
      query: ListQuery,
      response: {
        schema: z.strictObject({ topics: z.array(TopicSchema) }),
        example: { topics: [examples.topic] },
        description: 'A page of topics',
      },
      errors: [400, 401, 404],
    },
    servedFromFrontPage(frontPage, (ctx) => {
      const query = listQuery(ctx);
      return { type: query.type, nodeId: query.node_id, offset: query.offset, limit: query.limit };
    }),
    async (ctx) => {
      const query = listQuery(ctx);
      const input = { type: query.type, nodeId: query.node_id, offset: query.offset, limit: query.limit };
      const { viewer, result: topics } = await app.listTopics.execute(callerRefOf(ctx), input);
      identify(ctx, viewer);
      ctx.body = { topics: topics.map((topic) => wire.topic(topic, viewer)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/topics/read',
      summary: 'Mark every topic of the caller’s lists read, or every topic of one node',
      description:
        'Every topic the caller opened, and every topic new to them, is read up to its last reply: their unread ' +
        'and new counts are then 0 (for that node). Marks only move forward.',
      tag: 'Topics',
      access: 'user',
      body: { schema: MarkAllReadParams, media: ['json', 'form', 'multipart'] },
      response: Ok,
      errors: [400, 404],
    },
    async (ctx) => {
      await app.markAllTopicsRead.execute(await actorOf(ctx), params(ctx));
      ctx.body = OK;
    },
  );

  for (const read of [true, false]) {
    docs.route(
      router,
      prefix,
      {
        method: read ? 'post' : 'delete',
        path: '/topics/:id/read',
        summary: read ? 'Mark a topic read, up to a reply or to its last' : 'Mark a topic unread, as if never opened',
        description: read
          ? 'Without reply_id, every reply is read. The mark only moves forward: a reply before it changes nothing.'
          : 'The topic’s read_state in the caller’s lists is null again, and it may be new to them again.',
        tag: 'Topics',
        access: 'user',
        params: IdPath,
        ...(read ? { body: { schema: MarkReadParams, media: ['json', 'form', 'multipart'] as const } } : {}),
        response: Ok,
        errors: read ? [400, 404] : [404],
      },
      async (ctx) => {
        await app.markTopicRead.execute(await actorOf(ctx), pathId(ctx.params.id), params(ctx), read);
        ctx.body = OK;
      },
    );
  }

  // Before `/topics/:id`, which would take its last segment for an id.
  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/topics/unread_count',
      summary: 'Count the caller’s topics with unread replies, and new topics',
      description:
        '`unread`: the topics of the caller’s lists they opened that have replies they have yet to read ' +
        '(not their own, nor by anyone they blocked); `new`, those created in the last 14 days that they never opened, not their own.',
      tag: 'Topics',
      access: 'user',
      response: {
        schema: z.strictObject({ unread: z.number().int(), new: z.number().int() }),
        example: { unread: 2, new: 5 },
        description: 'The counts',
      },
      errors: [],
    },
    async (ctx) => {
      const { viewer, result } = await app.countUnreadTopics.execute(callerRefOf(ctx));
      identify(ctx, viewer);
      ctx.body = result;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/topics/:id',
      summary: 'Read a topic',
      description:
        'Counts a hit (not for HEAD), marks the caller’s notifications about the topic read, and opens the topic for ' +
        'the caller (its read_state in their lists is no longer null; no reply is read by it).',
      tag: 'Topics',
      access: 'public',
      params: IdPath,
      response: {
        schema: z.strictObject({ topic: TopicDetailSchema, meta: TopicMetaSchema }),
        example: { topic: examples.topicDetail, meta: examples.topicMeta },
        description: 'The topic and the caller’s relation to it',
      },
      errors: [404],
    },
    async (ctx) => {
      // HEAD is safe by definition: it looks without reading, so it counts no hit and marks nothing read.
      if (ctx.method === 'HEAD') {
        ctx.body = { ...(await detail(pathId(ctx.params.id), ctx)), meta: { followed: false, liked: false, favorited: false } };
        return;
      }
      const { viewer, result } = await app.showTopic.execute(callerRefOf(ctx), pathId(ctx.params.id));
      identify(ctx, viewer);
      ctx.body = { topic: wire.topicDetail(result.topic, viewer), meta: result.meta };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/topics',
      summary: 'Create a topic',
      description: 'Parameters are checked before the permission (blocked users: 403); a node_id that names no node is 404.',
      tag: 'Topics',
      access: 'user',
      body: { schema: TopicBody, media: ['json', 'form', 'multipart'] },
      response: { schema: TopicResponse, example: { topic: examples.topicDetail }, description: 'The new topic' },
      errors: [400, 403, 404],
    },
    async (ctx) => {
      const { title, body, node_id } = params(ctx);
      const id = await app.createTopic.execute(await actorOf(ctx), { title, body, nodeId: node_id });
      ctx.body = await detail(id, ctx);
    },
  );

  // homeland's routes take POST, PUT and PATCH alike for an update.
  for (const method of ['post', 'put', 'patch'] as const) {
    docs.route(
      router,
      prefix,
      {
        method,
        path: '/topics/:id',
        summary: 'Update a topic',
        description:
          'The owner or an administrator. An administrator changing the node locks it; others cannot move a locked topic.',
        tag: 'Topics',
        access: 'user',
        params: IdPath,
        body: { schema: UpdateTopicBody, media: ['json', 'form', 'multipart'] },
        response: { schema: TopicResponse, example: { topic: examples.topicDetail }, description: 'The updated topic' },
        errors: [400, 403, 404],
      },
      async (ctx) => {
        const { title, body, node_id, reason } = params(ctx);
        const id = pathId(ctx.params.id);
        await app.updateTopic.execute(await actorOf(ctx), { id, title, body, nodeId: node_id, reason: readReason(reason) });
        ctx.body = await detail(id, ctx);
      },
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/topics/:id',
      summary: 'Delete a topic',
      description: 'Soft. The owner while nobody else has replied; administrators always.',
      tag: 'Topics',
      access: 'user',
      params: IdPath,
      query: ReasonQuery,
      response: Ok,
      errors: [400, 403, 404],
    },
    async (ctx) => {
      await app.deleteTopic.execute(await actorOf(ctx), pathId(ctx.params.id), readReason(params(ctx).reason));
      ctx.body = OK;
    },
  );

  for (const [verb, on] of [
    ['follow', true],
    ['unfollow', false],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'post',
        path: `/topics/:id/${verb}`,
        summary: on ? 'Follow a topic' : 'Stop following a topic',
        description: 'Idempotent. Followers hear of new replies.',
        tag: 'Topics',
        access: 'user',
        params: IdPath,
        response: Ok,
        errors: [404],
      },
      async (ctx) => {
        await app.followTopic.execute(await actorOf(ctx), pathId(ctx.params.id), on);
        ctx.body = OK;
      },
    );
  }
  for (const [verb, on] of [
    ['favorite', true],
    ['unfavorite', false],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'post',
        path: `/topics/:id/${verb}`,
        summary: on ? 'Favorite a topic' : 'Unfavorite a topic',
        description: 'Idempotent.',
        tag: 'Topics',
        access: 'user',
        params: IdPath,
        response: Ok,
        errors: [404],
      },
      async (ctx) => {
        await app.favoriteTopic.execute(await actorOf(ctx), pathId(ctx.params.id), on);
        ctx.body = OK;
      },
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/topics/:id/ban',
      summary: 'Ban a topic',
      description: 'Administrators: moves it to NoPoint, locks its node, records a ban event, notifies the owner.',
      tag: 'Topics',
      access: 'user',
      params: IdPath,
      query: ReasonQuery,
      response: Ok,
      errors: [400, 403, 404],
    },
    async (ctx) => {
      await app.topicAction.execute(await actorOf(ctx), pathId(ctx.params.id), 'ban', readReason(params(ctx).reason));
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/topics/:id/action',
      summary: 'Moderate a topic',
      description: 'excellent, unexcellent, normal and ban for administrators; close and open for the owner too.',
      tag: 'Topics',
      access: 'user',
      params: IdPath,
      query: ActionQuery,
      response: Ok,
      errors: [400, 403, 404],
    },
    async (ctx) => {
      const { type, reason } = params(ctx);
      await app.topicAction.execute(await actorOf(ctx), pathId(ctx.params.id), type, readReason(reason));
      ctx.body = OK;
    },
  );

  return router;
}
