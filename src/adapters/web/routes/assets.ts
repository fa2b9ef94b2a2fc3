import Router from '@koa/router';
import { z } from 'zod';
import type { RouteDeclarer } from '../docs.js';
import { SCRIPT, SCRIPT_PATH } from '../views/script.js';
import { STYLESHEET, STYLESHEET_PATH } from '../views/style.js';

/** A year: the script's URL names its digest, so a cached copy is never stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The forum's icon: a speech bubble in the pages' accent colour (SVG; browsers ask for /favicon.ico by themselves). */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#2563eb" d="M6 4h20a4 4 0 0 1 4 4v12a4 4 0 0 1-4 4H14l-7 6v-6H6a4 4 0 0 1-4-4V8a4 4 0 0 1 4-4z"/><path fill="#fff" d="M9 11h14v2.5H9zm0 5h10v2.5H9z"/></svg>`;

/** A day: the icon may change with a release, and costs nothing to ask for again. */
const A_DAY = 'public, max-age=86400';

/** The pages' script (views/script.ts) and style sheet (views/style.ts), from memory under their digests' URLs; the icon. */
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
  docs.route(
    router,
    '',
    {
      method: 'get',
      path: STYLESHEET_PATH,
      summary: 'The forum pages’ style sheet',
      description: 'One sheet for every forum page, laid out for a phone first; its URL names its digest.',
      tag: 'Forum',
      access: 'browser',
      response: { schema: z.string(), example: ':root{…}', description: 'The style sheet', media: 'text/css' },
      errors: [],
    },
    (ctx) => {
      ctx.type = 'text/css; charset=utf-8';
      ctx.set('Cache-Control', IMMUTABLE);
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.body = STYLESHEET;
    },
  );
  for (const path of ['/favicon.ico', '/favicon.svg']) {
    docs.route(
      router,
      '',
      {
        method: 'get',
        path,
        summary: path === '/favicon.ico' ? 'The forum’s icon, where browsers look for it' : 'The forum’s icon',
        tag: 'Forum',
        access: 'browser',
        response: { schema: z.string(), example: '<svg …>', description: 'The icon (SVG)', media: 'image/svg+xml' },
        errors: [],
      },
      (ctx) => {
        ctx.type = 'image/svg+xml';
        ctx.set('Cache-Control', A_DAY);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.body = ICON;
      },
    );
  }
  return router;
}
