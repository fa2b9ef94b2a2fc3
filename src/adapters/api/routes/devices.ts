import Router from '@koa/router';
import { DeviceParams, type ManageDevices } from '../../../application/devices/devices.js';
import { actorOf } from '../auth.js';
import type { Params } from '../params.js';
import { OK } from '../../presentation/wire.js';
import { OkSchema } from '../../presentation/schemas.js';
import { type ApiDescription, documented } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const Device = documented(DeviceParams, { token: { example: 'a1b2c3d4e5f6' } });

/** What the device routes call. */
export interface DeviceRouteUseCases {
  devices: ManageDevices;
}
export const DeviceRouteUseCases = Symbol.for('DeviceRouteUseCases');

/** `POST /devices`, `DELETE /devices` (contract §7): the caller's push-notification devices. */
export function deviceRoutes(app: DeviceRouteUseCases, docs: ApiDescription, prefix: string): Router {
  const router = new Router();
  const device = (params: Params) => ({ platform: params.platform, token: params.token });

  for (const [method, register] of [
    ['post', true],
    ['delete', false],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method,
        path: '/devices',
        summary: register ? 'Register a push device' : 'Forget a push device',
        description: register
          ? 'A device signed in by another account moves to the caller. Idempotent.'
          : 'Forgets the caller’s device with this platform and token. Idempotent.',
        tag: 'Uploads',
        access: 'user',
        body: { schema: Device, media: ['json', 'form', 'multipart'] },
        response: { schema: OkSchema, example: examples.ok, description: 'Done' },
        errors: [400],
      },
      async (ctx) => {
        const input = device(ctx.state.params as Params);
        await (register ? app.devices.register(await actorOf(ctx), input) : app.devices.forget(await actorOf(ctx), input));
        ctx.body = OK;
      },
    );
  }

  return router;
}
