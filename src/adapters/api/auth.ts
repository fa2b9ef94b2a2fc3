import type { Context, Next } from 'koa';
import type { Actor, CallerRef } from '../../application/actor.js';
import type { Authenticate, PersonalClaim } from '../../application/tokens/access-tokens.js';
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

/** The request's caller: named by the request, resolved at most once, and only if something asks. */
interface CallerState {
  /** The bearer token the request named (header or parameter), if any. */
  token?: string | undefined;
  ref: CallerRef;
  /** Looks the caller up (memoized by `actorOf`). */
  lookUp(): Promise<Actor>;
  resolved?: Promise<Actor>;
}

/**
 * Names the request's caller: its bearer token's digest, computed once for everything after (the rate limit counts
 * by it, the lookup finds by it), and, for a personal token, whose it says it is (by its MAC: the rate limit counts
 * it as its user's). No lookup: a flood of requests costs no token lookups.
 */
export function nameCaller(authenticate: Authenticate) {
  return (ctx: Context, next: Next): Promise<void> => {
    const token = bearerToken(ctx);
    const ref = authenticate.reference(token);
    ctx.state.personalClaim = authenticate.personalClaim(token, ref);
    const lookUp = async () => {
      const actor = 'actor' in ref ? ref.actor : ((await authenticate.byDigest(ref))?.user ?? null);
      ctx.state.actor = actor;
      return actor;
    };
    ctx.state.caller = { token, ref, lookUp } satisfies CallerState;
    return next();
  };
}

/** What the request's personal token says of itself (named by nameCaller): null without one. */
export function personalClaimOf(ctx: Context): PersonalClaim | null {
  return (ctx.state.personalClaim as PersonalClaim | null | undefined) ?? null;
}

/** The digest of the request's bearer token (named by nameCaller), or undefined without one. */
export function tokenDigestOf(ctx: Context): string | undefined {
  const state = ctx.state.caller as CallerState | undefined;
  return state && 'accessDigest' in state.ref ? state.ref.accessDigest : undefined;
}

/**
 * Finds out who calls (the caller named by nameCaller). An unknown, expired or revoked token (or the `Bearer null` of logged-out clients) is
 * simply anonymous here; endpoints that need a user refuse with 401. A write resolves its caller before any route
 * runs: a token of the `read` scope is refused anything under the API but reading (contract §10). A read resolves
 * it only when a route asks (`actorOf`); the hottest reads never ask, and pass `callerRefOf` to a read model
 * that looks the token up in its own statement instead (one round trip less).
 */
export function resolveActor(authenticate: Authenticate, apiPrefix: string) {
  const authenticateWriter: LateToken = async (ctx, token, named) => {
    const ref = named ?? authenticate.reference(token);
    const caller = 'actor' in ref ? null : await authenticate.byDigest(ref);
    if (caller?.scope === 'read' && ctx.path.startsWith(`${apiPrefix}/`)) {
      throw new Forbidden('This token has the read scope: it may only read (GET). Ask for the all scope to write.');
    }
    const actor = caller?.user ?? null;
    identify(ctx, actor);
    return actor;
  };
  const resolveWriter = async (ctx: Context, next: Next, token: string | undefined, ref: CallerRef): Promise<void> => {
    await authenticateWriter(ctx, token, ref);
    // Named by no header and no parameter: a multipart body, read by its route, may still name it (callerInBody).
    if (token === undefined) (ctx.state as { lateToken?: LateToken }).lateToken = authenticateWriter;
    return next();
  };
  // While REQUIRE_2FA may hold an administrator back, a read's caller is resolved here too, where the rule applies,
  // and its statement is given them (no token lookup of its own, which would read the stored role).
  const resolveReader = async (ctx: Context, next: Next, ref: { accessDigest: string; at: Date }): Promise<void> => {
    identify(ctx, (await authenticate.byDigest(ref))?.user ?? null);
    return next();
  };
  const resolve = (ctx: Context, next: Next): Promise<void> => {
    const { token, ref } = ctx.state.caller as CallerState;
    if (!READING.has(ctx.method)) return resolveWriter(ctx, next, token, ref);
    return authenticate.readsLookTokensUp || !('accessDigest' in ref) ? next() : resolveReader(ctx, next, ref);
  };
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await resolve(ctx, next);
    } finally {
      const state = ctx.state.caller as CallerState | undefined;
      // The caller was here (contract §17: digests go by it), whatever the answer. Not awaited: the response
      // does not wait for it, and it costs a memo lookup but once an hour per user (SqlPresence); it never throws.
      if (state) void authenticate.seen(state.ref, ctx.state.actor as Actor | undefined);
      // A personal token's "last used": as cheap (a memo lookup but once in minutes per token); never throws.
      const claim = personalClaimOf(ctx);
      if (claim) void authenticate.used(claim);
    }
  };
}

/**
 * Resolves a write's caller by a token (or the reference nameCaller made of it), as resolveActor does (a `read`
 * token is refused), and records it.
 */
type LateToken = (ctx: Context, token: string | undefined, named?: CallerRef) => Promise<Actor>;

/**
 * Whether the caller of this write may still be named by `access_token` in a multipart body, which routes read
 * themselves after the caller was resolved (contract §6: homeland's clients upload photos that way): only when
 * neither the `Authorization` header nor a query or form parameter named a token.
 */
export function callerMayBeInBody(ctx: Context): boolean {
  return (ctx.state as { lateToken?: LateToken }).lateToken !== undefined && typeof ctx.is('multipart') === 'string';
}

/**
 * The caller named by `access_token` of a multipart body (see callerMayBeInBody), resolved as a write's caller
 * is. Never logged: the token only goes to the token lookup.
 */
export async function callerInBody(ctx: Context, token: unknown): Promise<Actor> {
  const late = (ctx.state as { lateToken?: LateToken }).lateToken;
  if (!late || typeof token !== 'string' || token === '') return actorOf(ctx);
  (ctx.state as { lateToken?: LateToken }).lateToken = undefined;
  return late(ctx, token);
}

/** The caller, looked up now if the request has not needed it yet. */
export function actorOf(ctx: Context): Promise<Actor> {
  const state = ctx.state.caller as CallerState;
  state.resolved ??= state.lookUp();
  return state.resolved;
}

/** The caller as a read model takes it: resolved if it already is, else the token's digest to look up. */
export function callerRefOf(ctx: Context): CallerRef {
  return (ctx.state.caller as CallerState).ref;
}

/** Records who the caller turned out to be (the request log names them). */
export function identify(ctx: Context, actor: Actor): void {
  ctx.state.actor = actor;
  const resolved = Promise.resolve(actor);
  ctx.state.caller = { ref: { actor }, lookUp: () => resolved, resolved } satisfies CallerState;
}
