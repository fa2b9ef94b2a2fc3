import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/**
 * Query parameters whose values are logged. Every other value is replaced, whatever its spelling: the server
 * honours `access_token`, `access_token[]` and `%61ccess_token` alike, so redaction goes by what a parameter is
 * allowed to be, never by what a secret is called.
 */
const LOGGED_PARAMS = new Set([
  'type',
  'node_id',
  'offset',
  'limit',
  'order',
  'obj_type',
  'obj_id',
  'q',
  'client_id',
  'response_type',
  'redirect_uri',
  'scope',
  'code_challenge_method',
  'grant_type',
]);

/**
 * A path as it may be logged: a conversation's id in it (`/messages/57`, the API's and the pages') is left out, so that
 * no log line says who reads which conversation (contract §24: nothing of a conversation in any log line).
 */
const loggablePath = (path: string) => path.replace(/\/messages\/\d+/g, '/messages/:id');

/**
 * The URL as it may be logged: the path (loggablePath), and the query with the value of every parameter not on the
 * list redacted.
 */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return loggablePath(url);
  const query = new URLSearchParams(url.slice(start + 1));
  const parts: string[] = [];
  for (const [key, value] of query) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    parts.push(`${encodeURIComponent(key)}=${LOGGED_PARAMS.has(name) ? encodeURIComponent(value) : '[REDACTED]'}`);
  }
  return `${loggablePath(url.slice(0, start))}?${parts.join('&')}`;
}

/** What a caller's `X-Request-Id` may be to be kept (a proxy's UUID or trace id); anything else is replaced. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id, for every log line about it (contract §15). */
export function requestIdOf(ctx: Context): string | undefined {
  return (ctx.state as { requestId?: string }).requestId;
}

/**
 * One structured line per request, written when it completes: id, method, URL (see loggableUrl), status,
 * duration and the user. Replaces pino-http, which built a child logger and ran serializers on every request
 * even when request logs were off (measured: about 11 % of the server's CPU per request on the reply list; see
 * docs/performance.md). The id is the caller's `X-Request-Id` when it is a plain token (a proxy's), a new UUID
 * otherwise, unique across processes and restarts; it is echoed back and kept in `ctx.state.requestId`.
 */
export function requestLog(logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    const id = ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    try {
      await next();
    } finally {
      const status = ctx.status;
      const level = status >= 500 ? 'error' : 'info';
      if (logger.isLevelEnabled(level)) {
        logger[level](
          {
            reqId: id,
            method: ctx.method,
            url: loggableUrl(ctx.originalUrl),
            status,
            ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
            userId: (ctx.state.actor as { id?: number } | null | undefined)?.id ?? null,
          },
          'request completed',
        );
      }
    }
  };
}
