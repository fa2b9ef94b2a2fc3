import Router from '@koa/router';
import { z } from 'zod';
import type { RouteDeclarer } from '../docs.js';
import { SCRIPT, SCRIPT_PATH } from '../views/script.js';

/** A year: the script's URL names its digest, so a cached copy is never stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The pages' script (views/script.ts), served from memory under its digest's URL. */
export function assetRoutes(docs: RouteDeclarer): Router {
  const router = new Router();
  docs.route(
    router,
    '',
    {
      method: 'get',
      path: SCRIPT_PATH,
      summary: 'The forum pages’ script',
      description: 'Progressive enhancement for signed-in pages (the live unread count); nothing depends on it.',
      tag: 'Forum',
      access: 'browser',
      response: {
        schema: z.string(),
        example: "'use strict';…",
        description: 'The script',
        media: 'text/javascript',
      },
      errors: [],
    },
    (ctx) => {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.set('Cache-Control', IMMUTABLE);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = SCRIPT;
    },
  );
  return router;
}
