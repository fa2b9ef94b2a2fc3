import Router from '@koa/router';
import { z } from 'zod';
import { requireUser } from '../../../application/actor.js';
import type { UseCases } from '../../../application/use-cases.js';
import { actorOf } from '../auth.js';
import { type Params, param, parseParams, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';

const pageQuery = z.object({ offset: param.optionalInteger, limit: param.optionalInteger });

export function notificationRoutes(app: UseCases, wire: Wire): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  router.get('/notifications', async (ctx) => {
    // Authentication comes before the parameters (contract §2).
    const user = requireUser(actorOf(ctx));
    const page = parseParams(pageQuery, params(ctx));
    const notifications = await app.listNotifications.execute(user, page);
    ctx.body = { notifications: notifications.map((notification) => wire.notification(notification, user)) };
  });

  router.get('/notifications/unread_count', async (ctx) => {
    ctx.body = { count: await app.countUnreadNotifications.execute(actorOf(ctx)) };
  });

  router.post('/notifications/read', async (ctx) => {
    await app.markNotificationsRead.execute(actorOf(ctx), params(ctx).ids);
    ctx.body = OK;
  });

  router.delete('/notifications/all', async (ctx) => {
    await app.deleteAllNotifications.execute(actorOf(ctx));
    ctx.body = OK;
  });

  router.delete('/notifications/:id', async (ctx) => {
    await app.deleteNotification.execute(actorOf(ctx), pathId(ctx.params.id));
    ctx.body = OK;
  });

  return router;
}
