import Router from '@koa/router';
import { z } from 'zod';
import type { RouteDeclarer } from '../docs.js';
import {
  PASSKEY_SCRIPT,
  PASSKEY_SCRIPT_PATH,
  WEBAUTHN_BROWSER_SCRIPT,
  WEBAUTHN_BROWSER_SCRIPT_PATH,
} from '../views/passkey-script.js';
import { SCRIPT, SCRIPT_PATH } from '../views/script.js';
import { STYLESHEET, STYLESHEET_PATH } from '../views/style.js';

/** A year: the script's URL names its digest, so a cached copy is never stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The forum's icon: a speech bubble in the pages' accent colour (SVG; browsers ask for /favicon.ico by themselves). */
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#2563eb" d="M6 4h20a4 4 0 0 1 4 4v12a4 4 0 0 1-4 4H14l-7 6v-6H6a4 4 0 0 1-4-4V8a4 4 0 0 1 4-4z"/><path fill="#fff" d="M9 11h14v2.5H9zm0 5h10v2.5H9z"/></svg>`;

/** A day: the icon may change with a release, and costs nothing to ask for again. */
const A_DAY = 'public, max-age=86400';

/** One file served from memory: what it is, its type, how long a browser keeps it, its bytes. */
interface Asset {
  path: string;
  summary: string;
  description?: string;
  type: string;
  cacheControl: string;
  body: string;
  example: string;
}

/**
 * The pages' script (views/script.ts), the passkey forms' scripts (views/passkey-script.tsx) and the style sheet
 * (views/style.ts), from memory under their digests' URLs; the icon.
 */
export function assetRoutes(docs: RouteDeclarer): Router {
  const router = new Router();
  const assets: Asset[] = [
    {
      path: SCRIPT_PATH,
      summary: 'The forum pages’ script',
      description:
        'Progressive enhancement for signed-in pages (the live unread count, images uploaded in place); nothing depends on it.',
      type: 'text/javascript',
      cacheControl: IMMUTABLE,
      body: SCRIPT,
      example: "'use strict';…",
    },
    {
      path: PASSKEY_SCRIPT_PATH,
      summary: 'The passkey forms’ script',
      description:
        'Runs the WebAuthn ceremony of the passkey forms (the two-factor settings, the sign-in step) with ' +
        '@simplewebauthn/browser; without it those forms stay hidden and the code field still works.',
      type: 'text/javascript',
      cacheControl: IMMUTABLE,
      body: PASSKEY_SCRIPT,
      example: "'use strict';…",
    },
    {
      path: WEBAUTHN_BROWSER_SCRIPT_PATH,
      summary: '@simplewebauthn/browser, for the passkey forms',
      description: 'The library’s own bundle, served from this origin (no CDN), for the passkey forms’ script.',
      type: 'text/javascript',
      cacheControl: IMMUTABLE,
      body: WEBAUTHN_BROWSER_SCRIPT,
      example: '!function(e,t){…',
    },
    {
      path: STYLESHEET_PATH,
      summary: 'The forum pages’ style sheet',
      description: 'One sheet for every forum page, laid out for a phone first; its URL names its digest.',
      type: 'text/css',
      cacheControl: IMMUTABLE,
      body: STYLESHEET,
      example: ':root{…}',
    },
    ...['/favicon.ico', '/favicon.svg'].map((path) => ({
      path,
      summary: path === '/favicon.ico' ? 'The forum’s icon, where browsers look for it' : 'The forum’s icon',
      type: 'image/svg+xml',
      cacheControl: A_DAY,
      body: ICON,
      example: '<svg …>',
    })),
  ];
  for (const asset of assets) {
    docs.route(
      router,
      '',
      {
        method: 'get',
        path: asset.path,
        summary: asset.summary,
        ...(asset.description ? { description: asset.description } : {}),
        tag: 'Forum',
        access: 'browser',
        response: { schema: z.string(), example: asset.example, description: asset.summary, media: asset.type },
        errors: [],
      },
      (ctx) => {
        ctx.type = asset.type === 'image/svg+xml' ? asset.type : `${asset.type}; charset=utf-8`;
        ctx.set('Cache-Control', asset.cacheControl);
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.body = asset.body;
      },
    );
  }
  return router;
}
