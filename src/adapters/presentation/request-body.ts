import type { Context } from 'koa';

/**
 * A request's body, as every adapter that takes one over HTTP reads it (contract §1): the limit, the one refusal (a
 * BodyRejected, which the service's error mapper answers 400, 413 or 415, never 500), the rest of a refused body read
 * and thrown away, and the mark of a body the service's reader left to its route (a file, streamed).
 */

/** Bodies over this are refused with 413 (contract §1): JSON, a form, a multipart form's fields. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** What is read and thrown away of a refused body, so that its connection stays usable; past it, the connection goes. */
const DISCARD_LIMIT_BYTES = 16 * BODY_LIMIT_BYTES;

/**
 * The request body could not be read: too large, of a type we do not parse, not valid JSON or form data, or
 * with a Content-Encoding that does not decode. Always the client's fault, never a 500.
 */
export class BodyRejected extends Error {
  constructor(
    readonly status: number | undefined,
    /** For people; a default per status when absent. */
    readonly publicMessage?: string,
  ) {
    super('request body rejected');
  }
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

const LEFT_TO_ROUTE = Symbol('bodyLeftToRoute');
type Marked = { [LEFT_TO_ROUTE]?: true };

/** Marks this request's body as left unread for its route, which reads it itself (a file, as it streams). */
export function leaveBodyToRoute(ctx: Context): void {
  (ctx.state as Marked)[LEFT_TO_ROUTE] = true;
}

/** Whether the service's reader left this request's body to its route (and nothing has read it yet). */
export function bodyLeftToRoute(ctx: Context): boolean {
  return (ctx.state as Marked)[LEFT_TO_ROUTE] === true;
}

/** Its route has read the body: it is no longer left. */
export function bodyTaken(ctx: Context): void {
  delete (ctx.state as Marked)[LEFT_TO_ROUTE];
}
