import type { Context, Middleware, Next } from 'koa';
import { bodyParser } from '@koa/bodyparser';
import multer from '@koa/multer';
import multerCore from 'multer';
import { BODY_LIMIT_BYTES, BodyRejected, discardRest, leaveBodyToRoute } from '../presentation/request-body.js';

/** The body types read (contract §1), as a 415 names them. */
const READ_TYPES = 'application/json, application/x-www-form-urlencoded or multipart/form-data';

/**
 * A multipart body's fields (no file: a route that takes a file reads its own body, as it streams); a file is refused
 * by its field's name. (@koa/multer has `none()`; its types do not name it.)
 */
const multipartFields = (
  multer({
    storage: multer.memoryStorage(),
    limits: { fields: 100, fieldSize: BODY_LIMIT_BYTES, parts: 100, headerPairs: 200 },
  }) as unknown as { none(): Middleware }
).none();

/**
 * Every body the API reads (contract §1): JSON and form bodies parsed by @koa/bodyparser, and multipart bodies' fields
 * (what a browser's FormData sends; Rails reads them on every endpoint) by multer, except where the operation reads its
 * own multipart body (`readsOwnMultipart`: a file upload, streamed). A body of any other type is 415, naming the
 * types read, never its fields "missing". A body that cannot be read becomes a BodyRejected (400, 413 or 415, never a
 * 500), and the rest of it is read and discarded: left in the socket, it would be taken for the next request on a
 * kept-alive connection.
 */
export function readBody(readsOwnMultipart: (method: string, path: string) => boolean = () => false): Middleware {
  const parsedMethods = ['POST', 'PUT', 'PATCH', 'DELETE'];
  const parse = bodyParser({
    enableTypes: ['json', 'form'],
    jsonLimit: BODY_LIMIT_BYTES,
    formLimit: BODY_LIMIT_BYTES,
    parsedMethods,
  });
  const guarded = (read: (ctx: Context, next: Next) => Promise<void>) => async (ctx: Context, next: Next) => {
    let parsed = false;
    try {
      await read(ctx, async () => {
        parsed = true;
        await next();
      });
    } catch (error) {
      if (parsed) throw error;
      discardRest(ctx);
      throw bodyRefusal(error);
    }
  };
  const parseThenNext = guarded(parse);
  const fieldsThenNext = guarded((ctx, next) => multipartFields(ctx as never, next));
  const readThenNext = (ctx: Context, next: Next) => {
    // No type, or no body at all: nothing to read (a POST that acts on its path alone).
    if (!ctx.request.type || !hasBody(ctx)) return next();
    if (ctx.request.is('json', '+json', 'urlencoded')) return parseThenNext(ctx, next);
    if (ctx.request.is('multipart')) {
      if (readsOwnMultipart(ctx.method, ctx.path)) {
        leaveBodyToRoute(ctx);
        return next();
      }
      // Fields only: past the limit, refused before a byte is parsed (multer's limits are per field).
      if ((ctx.request.length ?? 0) > BODY_LIMIT_BYTES) {
        discardRest(ctx);
        throw new BodyRejected(413);
      }
      return fieldsThenNext(ctx, next);
    }
    discardRest(ctx);
    throw new BodyRejected(415, `A request body of type ${ctx.request.type} is not read here: send ${READ_TYPES}`);
  };
  // Reads (most requests) have no body: they go straight on, without the parser's and this layer's promises.
  return (ctx: Context, next: Next) => (parsedMethods.includes(ctx.method) ? readThenNext(ctx, next) : next());
}

/** Whether the request carries a body (a length above zero, or chunks). */
function hasBody(ctx: Context): boolean {
  const length = ctx.request.length;
  return length === undefined ? ctx.get('transfer-encoding') !== '' : length > 0;
}

/** A parser's refusal, as the contract's: too large is 413, an unread encoding 415, anything else malformed 400. */
function bodyRefusal(error: unknown): BodyRejected {
  if (error instanceof BodyRejected) return error;
  if (error instanceof multerCore.MulterError) {
    if (error.code === 'LIMIT_FIELD_VALUE' || error.code === 'LIMIT_FIELD_COUNT' || error.code === 'LIMIT_PART_COUNT') {
      return new BodyRejected(413, 'The request body exceeds what a form may carry here');
    }
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT') {
      return new BodyRejected(400, `${error.field ?? 'a field'}: a file was sent, and this operation takes none`);
    }
    return new BodyRejected(400, `The multipart body could not be read: ${error.message}`);
  }
  if (error instanceof Error && /multipart|boundary/i.test(error.message)) {
    return new BodyRejected(400, `The multipart body could not be read: ${error.message}`);
  }
  return new BodyRejected((error as { status?: number }).status);
}
