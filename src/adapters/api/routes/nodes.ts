import Router from '@koa/router';
import { z } from 'zod';
import type { NodeReadModel } from '../../../application/read-models.js';
import type { BlockNode } from '../../../application/users/manage-users.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { actorOf, callerRefOf, identify } from '../auth.js';
import { IdPath, pathId } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { NodeSchema, OkSchema } from '../../presentation/schemas.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const Ok = { schema: OkSchema, example: examples.ok, description: 'Done' };

/** What the node routes call. */
export interface NodeRouteUseCases {
  nodes: NodeReadModel;
  blockNode: BlockNode;
}
export const NodeRouteUseCases = Symbol.for('NodeRouteUseCases');

export function nodeRoutes(app: NodeRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/nodes',
      summary: 'List nodes',
      description: 'By sort, descending.',
      tag: 'Nodes',
      access: 'public',
      response: {
        schema: z.strictObject({ nodes: z.array(NodeSchema) }),
        example: { nodes: [examples.node] },
        description: 'The nodes',
      },
      errors: [],
    },
    async (ctx) => {
      const { viewer, result: nodes } = await app.nodes.list(callerRefOf(ctx));
      // No caller comes back while every node is everyone's (it was not looked up): the request's own lookup stays.
      if (viewer) identify(ctx, viewer);
      ctx.body = { nodes: nodes.map((node) => wire.node(node)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/nodes/:id',
      summary: 'Read a node',
      tag: 'Nodes',
      access: 'public',
      params: IdPath,
      response: { schema: z.strictObject({ node: NodeSchema }), example: { node: examples.node }, description: 'The node' },
      errors: [404],
    },
    async (ctx) => {
      const { viewer, result: node } = await app.nodes.get(pathId(ctx.params.id), callerRefOf(ctx));
      if (viewer) identify(ctx, viewer);
      if (!node) throw new NotFound('node');
      ctx.body = { node: wire.node(node) };
    },
  );

  for (const [verb, block] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    docs.route(
      router,
      prefix,
      {
        method: 'post',
        path: `/nodes/:id/${verb}`,
        summary: block ? 'Block a node' : 'Unblock a node',
        description: 'The caller’s blocked nodes leave their default topic list. Idempotent.',
        tag: 'Nodes',
        access: 'user',
        params: IdPath,
        response: Ok,
        errors: [404],
      },
      async (ctx) => {
        await app.blockNode.execute(await actorOf(ctx), pathId(ctx.params.id), block);
        ctx.body = OK;
      },
    );
  }

  return router;
}
