import Router from '@koa/router';

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

export function systemRoutes(isReady: () => Promise<boolean>): Router {
  const router = new Router();

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const ready = await isReady().catch(() => false);
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ok' : 'unavailable' };
  });

  router.get('/avatars/:file', (ctx) => {
    const match = /^([A-Za-z0-9_.-]{1,20})\.svg$/.exec(ctx.params.file ?? '');
    if (!match) {
      ctx.status = 404;
      ctx.body = { error: 'ResourceNotFound' };
      return;
    }
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = avatarSvg(match[1]!);
  });

  return router;
}
