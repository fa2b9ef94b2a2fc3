import { READER_LIST_TYPES, type TopicListType } from '../../application/read-models.js';
import type { Context, Middleware, Next } from 'koa';
import type { CallerRef } from '../../application/actor.js';
import type { FrontPageCache } from '../presentation/front-page-cache.js';
import { callerRefOf } from './auth.js';
import { keepCompressed } from './compression.js';
import { readsAsEveryone } from '../../domain/visibility/visibility.js';

/** What tells a topic list's pages apart: its type and node, and the page. */
export interface TopicListPage {
  type: string;
  nodeId?: number | null;
  offset: number;
  limit: number;
}

/**
 * The key of the cached page that answers a topic list, or null when the list is read afresh: those who read as
 * everyone (the visibility policy's `readsAsEveryone`: signed out) see the same first pages, while a caller with a
 * token (live or not) and any later page are read every time. `page` (the list's parameters) is read only for them.
 */
export function frontPageKey(caller: CallerRef, page: () => TopicListPage): string | null {
  if (!('actor' in caller) || !readsAsEveryone(caller.actor)) return null;
  const { type, nodeId, offset, limit } = page();
  // A reader's own list is nobody else's (and, signed out, a 401).
  if (READER_LIST_TYPES.has(type as TopicListType)) return null;
  return offset === 0 ? `${type}|${nodeId ?? ''}|${limit}` : null;
}

/**
 * In front of the `GET /topics` route: a request the cache may answer (frontPageKey) is served from it as UTF-8
 * bytes, which need no measuring or encoding per response and are compressed once for all the browsers that ask;
 * on a miss the route answers, and its answer is what the cache keeps. Any other request goes on to the route.
 * `page` reads the request's list parameters (as the route does); without a cache, every request goes on.
 */
export function servedFromFrontPage(cache: FrontPageCache | undefined, page: (ctx: Context) => TopicListPage): Middleware {
  if (!cache) return (_ctx: Context, next: Next) => next();
  return async (ctx: Context, next: Next) => {
    const key = frontPageKey(callerRefOf(ctx), () => page(ctx));
    if (key === null) return next();
    const body = await cache.get(key, async () => {
      await next();
      return keepCompressed(Buffer.from(JSON.stringify(ctx.body)));
    });
    ctx.type = 'application/json';
    ctx.body = body;
  };
}
