import Router, { type RouterContext, type RouterMiddleware } from '@koa/router';
import { requireUser } from '../../../application/actor.js';
import type { UseCases } from '../../../application/use-cases.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { actorOf } from '../auth.js';
import { pathId } from '../params.js';
import type { Wire } from '../../presentation/wire.js';

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

  return router;
}
