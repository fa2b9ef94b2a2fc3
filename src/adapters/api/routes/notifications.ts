import type { ResolveWebSession } from '../../../application/oauth/web-sessions.js';
import { SESSION_COOKIE } from '../../presentation/session-cookie.js';
import Router from '@koa/router';
import { z } from 'zod';
import { requireUser } from '../../../application/actor.js';
import { MAX_ID, PageParams, maybe, read, wholeNumber } from '../../../application/inputs.js';
import {
  type CountUnreadNotifications,
  type DeleteAllNotifications,
  type DeleteNotification,
  type ListNotifications,
  type MarkNotificationsRead,
  MarkReadParams,
} from '../../../application/notifications/manage-notifications.js';
import { actorOf, callerRefOf, identify } from '../auth.js';
import { type Params, IdPath, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { NotificationSchema, OkSchema } from '../../presentation/schemas.js';
import { type ApiDescription, documented } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';
import type { NotificationStreams } from '../notification-streams.js';

const ReadBody = documented(MarkReadParams, {
  ids: {
    description:
      'a JSON array, or repeated ids[]= or ids= form keys (one id alone in a form: ids[]=); other users’ ids are ignored',
  },
});
const Ok = { schema: OkSchema, example: examples.ok, description: 'Done' };
/** The id of the last notification a reconnecting client received (EventSource sends it as a header). */
const LastEventId = maybe(wholeNumber(0, MAX_ID));
const StreamQuery = z.object({
  access_token: z.string().optional().meta({ description: 'the token, for browsers’ EventSource (it sends no headers)' }),
  last_event_id: LastEventId.meta({ description: 'as the Last-Event-ID header: resume after this notification id' }),
});

/** What the notification routes call (the stream is the NotificationStreams' of the process). */
export interface NotificationRouteUseCases {
  /** A signed-in browser's session: the stream opens for it too (the pages' live count). */
  resolveWebSession: ResolveWebSession;
  listNotifications: ListNotifications;
  countUnreadNotifications: CountUnreadNotifications;
  markNotificationsRead: MarkNotificationsRead;
  deleteAllNotifications: DeleteAllNotifications;
  deleteNotification: DeleteNotification;
}
export const NotificationRouteUseCases = Symbol.for('NotificationRouteUseCases');

export function notificationRoutes(
  app: NotificationRouteUseCases,
  wire: Wire,
  docs: ApiDescription,
  prefix: string,
  streams: NotificationStreams,
): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/notifications/stream',
      summary: 'Stream the caller’s notifications live (Server-Sent Events)',
      description:
        'Events: `event: notification` (id = the notification id, data = the Notification) for each new one, ' +
        '`event: unread_count` on connect and whenever the count changes, a comment line at least every 25 s. ' +
        'A reconnecting client (`Last-Event-ID`) first receives what it missed. Works whichever process the write happened in. ' +
        'Besides a token, a signed-in browser’s session cookie opens it (the forum pages’ live unread count).',
      tag: 'Notifications',
      access: 'user',
      browserSession: true,
      query: StreamQuery,
      response: {
        schema: z.string(),
        media: 'text/event-stream',
        example: 'event: unread_count\ndata: {"count":1}\n\n',
        description: 'The stream, open until either side closes it',
      },
      errors: [400],
    },
    async (ctx) => {
      const user = requireUser((await actorOf(ctx)) ?? (await app.resolveWebSession.execute(ctx.cookies.get(SESSION_COOKIE))));
      const raw = ctx.get('last-event-id') || params(ctx).last_event_id;
      const lastEventId = read(LastEventId, raw === '' ? undefined : raw, 'Last-Event-ID') ?? null;
      await streams.open(ctx, user, lastEventId);
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/notifications',
      summary: 'List the caller’s notifications',
      description:
        'Newest first, with the related records embedded by type: `reply` and `topic` (TopicReply), ' +
        '`mention_type` and `mention` (Mention), `topic` and `node` (NodeChanged), `topic` (Topic), nothing (Follow).',
      tag: 'Notifications',
      access: 'user',
      query: PageParams,
      response: {
        schema: z.strictObject({ notifications: z.array(NotificationSchema) }),
        example: { notifications: [examples.notification] },
        description: 'A page of notifications',
      },
      errors: [400],
    },
    async (ctx) => {
      // Authentication comes before the parameters (contract §2): ListNotifications reads them after it.
      const user = requireUser(await actorOf(ctx));
      const notifications = await app.listNotifications.execute(user, params(ctx));
      ctx.body = { notifications: notifications.map((notification) => wire.notification(notification, user)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/notifications/unread_count',
      summary: 'Count the caller’s unread notifications',
      tag: 'Notifications',
      access: 'user',
      response: { schema: z.strictObject({ count: z.number().int() }), example: { count: 3 }, description: 'The count' },
      errors: [],
    },
    async (ctx) => {
      const { viewer, result } = await app.countUnreadNotifications.execute(callerRefOf(ctx));
      identify(ctx, viewer);
      ctx.body = { count: result };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/notifications/read',
      summary: 'Mark notifications read',
      description: 'Marks those of the listed ids that are the caller’s; an empty list does nothing.',
      tag: 'Notifications',
      access: 'user',
      body: { schema: ReadBody, media: ['json', 'form', 'multipart'] },
      response: Ok,
      errors: [400],
    },
    async (ctx) => {
      await app.markNotificationsRead.execute(await actorOf(ctx), params(ctx).ids);
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/notifications/all',
      summary: 'Delete all the caller’s notifications',
      tag: 'Notifications',
      access: 'user',
      response: Ok,
      errors: [],
    },
    async (ctx) => {
      await app.deleteAllNotifications.execute(await actorOf(ctx));
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/notifications/:id',
      summary: 'Delete a notification',
      description: 'Another user’s notification is 404.',
      tag: 'Notifications',
      access: 'user',
      params: IdPath,
      response: Ok,
      errors: [404],
    },
    async (ctx) => {
      await app.deleteNotification.execute(await actorOf(ctx), pathId(ctx.params.id));
      ctx.body = OK;
    },
  );

  return router;
}
