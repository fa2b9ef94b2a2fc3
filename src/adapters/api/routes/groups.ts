import Router from '@koa/router';
import { z } from 'zod';
import type { GroupReadModel } from '../../../application/read-models.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { GROUP_NAME_PATTERN } from '../../../domain/groups/group.js';
import { callerRefOf, identify } from '../auth.js';
import type { Wire } from '../../presentation/wire.js';
import { GroupSchema } from '../../presentation/schemas.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const NamePath = z.object({ name: z.string().meta({ description: 'a group’s name, in any case', example: 'rubyists' }) });

/** What the group routes call. */
export interface GroupRouteUseCases {
  groups: GroupReadModel;
}
export const GroupRouteUseCases = Symbol.for('GroupRouteUseCases');

export function groupRoutes(app: GroupRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/groups/:name',
      summary: 'Read a group',
      description: 'Its name, title and how many members it has. A hidden group is found only by an administrator.',
      tag: 'Groups',
      access: 'public',
      params: NamePath,
      response: { schema: z.strictObject({ group: GroupSchema }), example: { group: examples.group }, description: 'The group' },
      errors: [404],
    },
    async (ctx) => {
      const name = ctx.params.name ?? '';
      // A name no group could have names none: nobody needs to look it up.
      if (!GROUP_NAME_PATTERN.test(name)) throw new NotFound('group');
      const { viewer, result: group } = await app.groups.get(name, callerRefOf(ctx));
      identify(ctx, viewer);
      if (!group) throw new NotFound('group');
      ctx.body = { group: wire.group(group) };
    },
  );

  return router;
}
