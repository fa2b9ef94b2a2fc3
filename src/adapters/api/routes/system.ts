import Router from '@koa/router';
import { z } from 'zod';
import type { ApiDescription } from '../openapi/describe.js';

/** A letter avatar, so `avatar_url` always points somewhere real without a third-party service. */
export function avatarSvg(login: string): string {
  const letter = (login[0] ?? '?').toUpperCase().replace(/[^A-Z0-9]/, '?');
  let hash = 0;
  for (const char of login) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  const hue = hash % 360;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120">` +
    `<rect width="120" height="120" fill="hsl(${hue},45%,55%)"/>` +
    `<text x="60" y="80" font-size="60" font-family="sans-serif" text-anchor="middle" fill="#fff">${letter}</text></svg>`
  );
}

const Status = z.strictObject({ status: z.enum(['ok', 'unavailable']) }).meta({ id: 'Status' });

export function systemRoutes(isReady: () => Promise<boolean>, docs: ApiDescription): Router {
  const router = new Router();

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/healthz',
      summary: 'Is the process running',
      tag: 'Service',
      access: 'public',
      response: { schema: Status, example: { status: 'ok' }, description: 'It runs' },
      errors: [],
    },
    (ctx) => {
      ctx.body = { status: 'ok' };
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/readyz',
      summary: 'Does the database answer',
      tag: 'Service',
      access: 'public',
      response: { schema: Status, example: { status: 'ok' }, description: 'Ready' },
      otherResponses: { 503: { schema: Status, description: 'The database does not answer' } },
      errors: [],
    },
    async (ctx) => {
      const ready = await isReady().catch(() => false);
      ctx.status = ready ? 200 : 503;
      ctx.body = { status: ready ? 'ok' : 'unavailable' };
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/avatars/:file',
      summary: 'A letter avatar',
      description: 'What avatar_url points at: an SVG with the login’s first letter.',
      tag: 'Service',
      access: 'public',
      params: z.object({ file: z.string().meta({ example: 'alice.svg' }) }),
      response: { schema: z.string(), example: avatarSvg('alice'), description: 'The avatar', media: 'image/svg+xml' },
      errors: [404],
    },
    (ctx) => {
      const match = /^([A-Za-z0-9_.-]{1,20})\.svg$/.exec(ctx.params.file ?? '');
      if (!match) {
        ctx.status = 404;
        ctx.body = { error: 'ResourceNotFound' };
        return;
      }
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = avatarSvg(match[1]!);
    },
  );

  return router;
}
