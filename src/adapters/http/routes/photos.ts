import Router from '@koa/router';
import multer from '@koa/multer';
import multerCore from 'multer';
import type { Context } from 'koa';
import { requireUser } from '../../../application/actor.js';
import { PHOTO_MAX_BYTES, type UploadPhoto } from '../../../application/photos/upload-photo.js';
import { actorOf } from '../auth.js';
import { BodyRejected } from '../error-mapper.js';
import { z } from 'zod';
import type { ApiDescription } from '../openapi/describe.js';

/** One file, `file`, of at most 5 MiB, kept in memory (5 MiB is small), with a few small form fields at most. */
const receive = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 100 },
}).single('file');

/** multer's and busboy's refusals, as the contract's: too large is 413, anything else malformed is 400. */
function uploadError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return new BodyRejected(413, 'The file exceeds 5 MiB');
  if (error instanceof multerCore.MulterError) return new BodyRejected(400, `file: ${error.message}`);
  if (error instanceof Error && /multipart|boundary|part|form/i.test(error.message)) {
    return new BodyRejected(400, `The multipart body could not be read: ${error.message}`);
  }
  return error;
}

const PhotoBody = z.object({
  file: z.string().meta({ format: 'binary', description: 'a PNG, JPEG, GIF or WebP image, at most 5 MiB (judged by its bytes)' }),
});

/** What the photo route calls. */
export interface PhotoRouteUseCases {
  uploadPhoto: UploadPhoto;
}
export const PhotoRouteUseCases = Symbol.for('PhotoRouteUseCases');

/** `POST /photos` (contract §7): multipart field `file` → `{"image_url": …}`. */
export function photoRoutes(app: PhotoRouteUseCases, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/photos',
      summary: 'Upload a photo',
      description: 'Stored under a name of the service’s own; served back at image_url. Blocked users: 403.',
      tag: 'Uploads',
      access: 'user',
      body: { schema: PhotoBody, media: ['multipart'] },
      response: {
        schema: z.strictObject({ image_url: z.url() }),
        example: { image_url: 'http://127.0.0.1:3000/uploads/photos/2026/11/0f1e2d3c4b5a69788796a5b4c3d2e1f0.png' },
        description: 'Where the photo is served',
      },
      errors: [400, 403],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      requireUser(actor); // before reading up to 5 MiB from a stranger
      await receive(ctx as never, async () => undefined).catch((error: unknown) => {
        throw uploadError(error);
      });
      const file = (ctx as Context & { file?: { buffer: Buffer } }).file;
      ctx.body = { image_url: await app.uploadPhoto.execute(actor, file && { bytes: file.buffer }) };
    },
  );

  return router;
}
