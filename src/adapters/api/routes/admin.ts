import Router from '@koa/router';
import { z } from 'zod';
import { AuditFilters, type ListAudit } from '../../../application/audit/audit-log.js';
import { actorOf } from '../auth.js';
import type { Params } from '../params.js';
import type { Wire } from '../../presentation/wire.js';
import { AuditEntrySchema } from '../../presentation/schemas.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

/** What the admin routes call. */
export interface AdminRouteUseCases {
  listAudit: ListAudit;
}
export const AdminRouteUseCases = Symbol.for('AdminRouteUseCases');

export function adminRoutes(app: AdminRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/admin/audit',
      summary: 'The moderation audit log',
      description:
        'Every moderation and administration act, whether through the API or forumctl, newest ' +
        'first, with who did it, what it changed (`[before, after]` per field) and why. Administrators only. ' +
        '`actor` is a login; every filter is optional and they combine.',
      tag: 'Admin',
      access: 'user',
      query: AuditFilters,
      response: {
        schema: z.strictObject({ entries: z.array(AuditEntrySchema) }),
        example: { entries: [examples.auditEntry] },
        description: 'A page of entries',
      },
      errors: [400, 403],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const entries = await app.listAudit.execute(actor, ctx.state.params as Params);
      ctx.body = { entries: entries.map((entry) => wire.auditEntry(entry, actor)) };
    },
  );

  return router;
}
