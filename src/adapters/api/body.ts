import type { Context, Middleware, Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { BodyRejected } from './error-mapper.js';

/** Bodies over this are refused with 413 (contract §1). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What is read and thrown away of a refused body, so that its connection stays usable; past it, the connection goes. */
const DISCARD_LIMIT_BYTES = 16 * BODY_LIMIT_BYTES;

/**
 * JSON and form bodies, parsed by @koa/bodyparser. A body it cannot read becomes a BodyRejected (400, 413 or 415,
 * never a 500), and the rest of that body is read and discarded: left in the socket, it would be taken for the
 * next request on a kept-alive connection.
 */
export function readBody(): Middleware {
  const parsedMethods = ['POST', 'PUT', 'PATCH', 'DELETE'];
  const parse = bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: BODY_LIMIT_BYTES,
    formLimit: BODY_LIMIT_BYTES,
    parsedMethods,
  });
  const parseThenNext = async (ctx: Context, next: Next) => {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
        await next();
      });
    } catch (error) {
      if (parsed) throw error;
      discardRest(ctx);
      throw new BodyRejected((error as { status?: number }).status);
    }
  };
  // Reads (most requests) have no body: they go straight on, without the parser's and this layer's promises.
  return (ctx: Context, next: Next) => (parsedMethods.includes(ctx.method) ? parseThenNext(ctx, next) : next());
}

/**
 * Reads the rest of a refused body and throws it away, so that the connection can carry the answer and the
 * next request; past `limit`, the connection goes.
 */
export function discardRest(ctx: Context, limit = DISCARD_LIMIT_BYTES): void {
  const request = ctx.req;
  if (request.readableEnded) return;
  let discarded = 0;
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit) request.socket.destroy();
  });
  request.resume();
}
