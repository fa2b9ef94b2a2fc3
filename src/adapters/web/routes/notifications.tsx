import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type {
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from '../../../application/notifications/manage-notifications.js';
import type { Wire } from '../../presentation/wire.js';
import type { BrowserPages } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { type ForumPageUseCases, forumPages, IdParam, idOf, ListQuery, pageOf } from '../forum-pages.js';
import { actionFor } from '../views/layout.js';
import { NotificationsPage } from '../views/notifications.js';

/** What the notifications page calls: the API's own use cases. */
export interface NotificationPageUseCases extends ForumPageUseCases {
  listNotifications: ListNotifications;
  markNotificationsRead: MarkNotificationsRead;
  deleteNotification: DeleteNotification;
  deleteAllNotifications: DeleteAllNotifications;
}
export const NotificationPageUseCases = Symbol.for('NotificationPageUseCases');

const PER_PAGE = 20;

/**
 * `/notifications` (contract §21b): the signed-in person's notifications as the API lists them, those shown marked
 * read as they are shown (with the API's MarkNotificationsRead); one or all deleted with a button.
 */
export function notificationRoutes(
  app: NotificationPageUseCases,
  wire: Wire,
  docs: RouteDeclarer,
  browser: BrowserPages,
): Router {
  const router = new Router();
  const { readerOf, show, reading, writer } = forumPages(app, wire, browser);

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/notifications',
      summary: 'Your notifications',
      description:
        'Newest first, 20 a page; the unread ones are marked, and marked read as the page shows them. Not signed in: ' +
        'to the sign-in page (303).',
      tag: 'Forum',
      access: 'browser',
      query: ListQuery,
      response: htmlPage('The notifications'),
      otherResponses: { 303: { description: 'Not signed in: to the sign-in page' } },
      errors: [],
    },
    reading(async (ctx) => {
      const { actor, frame } = await readerOf(ctx);
      if (!actor || !frame.reader.csrf) return browser.seeOther(ctx, actionFor('/account/sign-in', frame.locale));
      const page = pageOf(ctx);
      const listed = await app.listNotifications.execute(actor, { offset: (page - 1) * PER_PAGE, limit: PER_PAGE + 1 });
      const shown = listed.slice(0, PER_PAGE);
      const unread = shown.filter((n) => !n.read).map((n) => n.id);
      if (unread.length > 0) {
        await app.markNotificationsRead.execute(actor, unread);
        // The header counts what is left unread once these are read.
        frame.reader.unread = Math.max(0, (frame.reader.unread ?? 0) - unread.length);
      }
      show(
        ctx,
        200,
        <NotificationsPage
          frame={frame}
          csrf={frame.reader.csrf}
          notifications={shown.map((n) => wire.notification(n, actor))}
          page={page}
          hasNext={listed.length > PER_PAGE}
        />,
      );
    }),
  );

  const formOperation = (path: string, summary: string, withId: boolean) =>
    ({
      method: 'post',
      path,
      summary,
      tag: 'Forum',
      access: 'browser',
      ...(withId ? { params: IdParam } : {}),
      query: z.object({ lang: Lang }),
      body: { schema: z.object({ csrf_token: Csrf }), media: ['form', 'multipart'] },
      response: { status: 303, description: 'Done: back to the notifications (not signed in: to the sign-in page)' },
      otherResponses: {
        403: page('The form’s token is not this session’s'),
        404: page('No such notification of yours'),
      },
      errors: [],
    }) as const;

  docs.route(
    router,
    '',
    formOperation('/notifications/:id/delete', 'Delete a notification', true),
    reading(async (ctx: Context) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      await app.deleteNotification.execute(signedIn.user, id);
      browser.seeOther(ctx, '/notifications');
    }),
  );

  docs.route(
    router,
    '',
    formOperation('/notifications/clear', 'Delete all your notifications', false),
    reading(async (ctx: Context) => {
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      await app.deleteAllNotifications.execute(signedIn.user);
      browser.seeOther(ctx, '/notifications');
    }),
  );

  return router;
}
