import type { Context, Next } from 'koa';
import type { Actor } from '../../application/actor.js';
import type { Authenticate } from '../../application/tokens/access-tokens.js';
import { Forbidden } from '../../domain/shared/errors.js';

/** What a `read` token may do: read (OPTIONS only asks what is allowed). */
const READING = new Set(['GET', 'HEAD', 'OPTIONS']);

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
 * A token of the `read` scope is refused anything under the API but reading (contract §10), before any route runs.
 */
export function resolveActor(authenticate: Authenticate, apiPrefix: string) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const caller = await authenticate.execute(bearerToken(ctx));
    if (caller?.scope === 'read' && !READING.has(ctx.method) && ctx.path.startsWith(`${apiPrefix}/`)) {
      throw new Forbidden('This token has the read scope: it may only read (GET). Ask for the all scope to write.');
    }
    ctx.state.actor = caller?.user ?? null;
    await next();
  };
}

export function actorOf(ctx: Context): Actor {
  return ctx.state.actor as Actor;
}
