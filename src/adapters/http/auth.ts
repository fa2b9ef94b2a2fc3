import type { Context, Next } from 'koa';
import type { Actor } from '../../application/actor.js';
import type { Authenticate } from '../../application/tokens/access-tokens.js';

/** The bearer token of a request: the `Authorization` header (scheme in any case) wins over `access_token`. */
export function bearerToken(ctx: Context): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
  if (match) return match[1];
  const param = (ctx.state.params as Record<string, unknown>).access_token;
  return typeof param === 'string' && param !== '' ? param : undefined;
}

/**
 * Resolves the caller once per request into `ctx.state.actor`. An unknown, expired or revoked token (or the
 * `Bearer null` of logged-out clients) is simply anonymous here; endpoints that need a user refuse with 401.
 */
export function resolveActor(authenticate: Authenticate) {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.state.actor = await authenticate.execute(bearerToken(ctx));
    await next();
  };
}

export function actorOf(ctx: Context): Actor {
  return ctx.state.actor as Actor;
}
