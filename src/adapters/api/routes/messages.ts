import Router from '@koa/router';
import { z } from 'zod';
import type {
  CountUnreadMessages,
  ListConversationReplies,
  ListConversations,
  ShowConversation,
} from '../../../application/conversations/read-conversations.js';
import {
  type AddParticipants,
  AddParticipantsParams,
  type LeaveConversation,
  type ReplyToConversation,
  ReplyToConversationParams,
  type StartConversation,
  StartConversationParams,
} from '../../../application/conversations/write-conversations.js';
import { PageParams } from '../../../application/inputs.js';
import { FlagParams, type FlagPost } from '../../../application/review/flag-post.js';
import { ListRepliesParams } from '../../../application/replies/list-replies.js';
import { actorOf } from '../auth.js';
import { type Params, IdPath, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { ConversationDetailSchema, ConversationSchema, OkSchema, ReplySchema } from '../../presentation/schemas.js';
import { type ApiDescription, documented } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const to = { description: 'logins and group names: a JSON array, or one string of names separated by commas', example: ['bob'] };
const StartBody = documented(StartConversationParams, {
  to,
  title: { example: 'About the meetup' },
  body: { description: 'Markdown, as a topic’s', example: 'Shall we meet at six?' },
});
const ReplyBody = documented(ReplyToConversationParams, { body: { description: 'Markdown', example: 'Six is fine.' } });
const AddBody = documented(AddParticipantsParams, { to });
const ConversationResponse = z.strictObject({ message: ConversationDetailSchema });
const Ok = { schema: OkSchema, example: examples.ok, description: 'Done' };
const MEDIA = ['json', 'form', 'multipart'] as const;
const NOT_THEIRS = 'Outside its participants a conversation does not exist: 404 to anyone else, administrators included.';

/** What the private message routes call (contract §24). */
export interface MessageRouteUseCases {
  startConversation: StartConversation;
  replyToConversation: ReplyToConversation;
  addParticipants: AddParticipants;
  leaveConversation: LeaveConversation;
  listConversations: ListConversations;
  showConversation: ShowConversation;
  listConversationReplies: ListConversationReplies;
  countUnreadMessages: CountUnreadMessages;
  flagPost: FlagPost;
}
export const MessageRouteUseCases = Symbol.for('MessageRouteUseCases');

export function messageRoutes(app: MessageRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/messages',
      summary: 'List the caller’s conversations',
      description: 'Newest activity first, each with who takes part, its last message and what the caller has yet to read.',
      tag: 'Messages',
      access: 'user',
      query: PageParams,
      response: {
        schema: z.strictObject({ messages: z.array(ConversationSchema) }),
        example: { messages: [examples.conversation] },
        description: 'A page of conversations',
      },
      errors: [400],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const conversations = await app.listConversations.execute(actor, params(ctx));
      ctx.body = { messages: conversations.map((conversation) => wire.conversation(conversation, actor)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/messages/unread_count',
      summary: 'Count the caller’s conversations with messages they have yet to read',
      tag: 'Messages',
      access: 'user',
      response: {
        schema: z.strictObject({ count: z.number().int() }),
        example: { count: 2 },
        description: 'How many conversations have unread messages',
      },
      errors: [],
    },
    async (ctx) => {
      ctx.body = { count: await app.countUnreadMessages.execute(await actorOf(ctx)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/messages',
      summary: 'Start a conversation',
      description:
        'With 1 to 19 others (users, and groups whose members take part), under the rules of posting: someone who ' +
        'blocked the caller cannot be named by them (403, not saying who); a new account sends at most ' +
        'NEW_USER_MESSAGES_PER_DAY a day.',
      tag: 'Messages',
      access: 'user',
      body: { schema: StartBody, media: MEDIA },
      response: {
        schema: ConversationResponse,
        example: { message: examples.conversationDetail },
        description: 'The conversation',
      },
      errors: [400, 403, 429],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const body = params(ctx);
      const id = await app.startConversation.execute(actor, { to: body.to, title: body.title, body: body.body });
      ctx.body = { message: wire.conversationDetail(await app.showConversation.execute(actor, id), actor) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/messages/:id',
      summary: 'Read a conversation',
      description: `Its opening message and who takes part; opening it counts as reading it (§22). ${NOT_THEIRS}`,
      tag: 'Messages',
      access: 'user',
      params: IdPath,
      response: {
        schema: ConversationResponse,
        example: { message: examples.conversationDetail },
        description: 'The conversation',
      },
      errors: [404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      ctx.body = { message: wire.conversationDetail(await app.showConversation.execute(actor, pathId(ctx.params.id)), actor) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/messages/:id/replies',
      summary: 'List a conversation’s messages after its opening one',
      description: `As a topic’s replies; reads the conversation up to the last one returned. ${NOT_THEIRS}`,
      tag: 'Messages',
      access: 'user',
      params: IdPath,
      query: ListRepliesParams,
      response: {
        schema: z.strictObject({ replies: z.array(ReplySchema) }),
        example: { replies: [examples.reply] },
        description: 'A page of messages',
      },
      errors: [400, 404],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const page = await app.listConversationReplies.execute(actor, { id: pathId(ctx.params.id), ...params(ctx) });
      ctx.body = { replies: page.replies.map((reply) => wire.reply(reply, actor)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/messages/:id/replies',
      summary: 'Reply in a conversation',
      description: `Under the rules of posting, as a reply to a topic. ${NOT_THEIRS}`,
      tag: 'Messages',
      access: 'user',
      params: IdPath,
      body: { schema: ReplyBody, media: MEDIA },
      response: { ...Ok, description: 'Sent' },
      errors: [400, 403, 404, 429],
    },
    async (ctx) => {
      await app.replyToConversation.execute(await actorOf(ctx), { id: pathId(ctx.params.id), body: params(ctx).body });
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/messages/:id/participants',
      summary: 'Add people to a conversation',
      description: `Any participant may, up to 20 in all; someone who blocked the caller cannot be added by them (403). ${NOT_THEIRS}`,
      tag: 'Messages',
      access: 'user',
      params: IdPath,
      body: { schema: AddBody, media: MEDIA },
      response: Ok,
      errors: [400, 403, 404],
    },
    async (ctx) => {
      await app.addParticipants.execute(await actorOf(ctx), { id: pathId(ctx.params.id), to: params(ctx).to });
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/messages/:id/flag',
      summary: 'Flag a conversation’s opening message',
      description:
        'As a post is flagged (its replies: POST /replies/:id/flag). The administrators who review it are shown that ' +
        `message and nothing else of the conversation, and each look is written in the audit log. ${NOT_THEIRS}`,
      tag: 'Messages',
      access: 'user',
      params: IdPath,
      body: { schema: FlagParams, media: MEDIA },
      response: Ok,
      errors: [400, 404],
    },
    async (ctx) => {
      await app.flagPost.execute(await actorOf(ctx), { type: 'topic', id: pathId(ctx.params.id) }, params(ctx));
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/messages/:id/participants/me',
      summary: 'Leave a conversation',
      description: `It no longer exists for the caller, unless someone adds them back. ${NOT_THEIRS}`,
      tag: 'Messages',
      access: 'user',
      params: IdPath,
      response: Ok,
      errors: [404],
    },
    async (ctx) => {
      await app.leaveConversation.execute(await actorOf(ctx), { id: pathId(ctx.params.id) });
      ctx.body = OK;
    },
  );

  return router;
}
