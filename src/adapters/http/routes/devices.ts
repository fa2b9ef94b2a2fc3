import Router from '@koa/router';
import type { UseCases } from '../../../application/use-cases.js';
import { actorOf } from '../auth.js';
import type { Params } from '../params.js';
import { OK } from '../../presentation/wire.js';

/** `POST /devices`, `DELETE /devices` (contract §7): the caller's push-notification devices. */
export function deviceRoutes(app: UseCases): Router {
  const router = new Router();
  const device = (params: Params) => ({ platform: params.platform, token: params.token });

  router.post('/devices', async (ctx) => {
    await app.devices.register(actorOf(ctx), device(ctx.state.params as Params));
    ctx.body = OK;
  });

  router.delete('/devices', async (ctx) => {
    await app.devices.forget(actorOf(ctx), device(ctx.state.params as Params));
    ctx.body = OK;
  });

  return router;
}
