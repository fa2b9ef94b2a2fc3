import Router from '@koa/router';
import multer from '@koa/multer';
import multerCore from 'multer';
import type { Context } from 'koa';
import { requireUser } from '../../../application/actor.js';
import { PHOTO_MAX_BYTES, type UploadPhoto } from '../../../application/uploads/upload-photo.js';
import type { DeleteUpload, ListOwnUploads } from '../../../application/uploads/manage-uploads.js';
import { PageParams, readReason } from '../../../application/inputs.js';
import { IdPath, type Params, pathId, ReasonQuery } from '../params.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { OkSchema, UploadSchema } from '../../presentation/schemas.js';
import { examples } from '../openapi/examples.js';
import { actorOf, callerInBody, callerMayBeInBody } from '../auth.js';
import { DomainError } from '../../../domain/shared/errors.js';
import { BodyRejected } from '../../presentation/request-body.js';
import { z } from 'zod';
import type { ApiDescription } from '../openapi/describe.js';

/** One file, `file`, of at most 5 MiB, kept in memory (5 MiB is small), with a few small form fields at most. */
const RECEIVED = {
  storage: multer.memoryStorage(),
  // File names in UTF-8, as browsers send them (busboy's default reads them as Latin-1: 猫.png came as "ç\u008c«.png").
  // (multer takes it; its types do not name it.)
  defParamCharset: 'utf8',
  limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 10, fieldSize: 64 * 1024, parts: 12, headerPairs: 100 },
};
const receive = multer(RECEIVED).single('file');

/** What checks, as the file starts, the caller that the body's fields named before it (see receiveNamingCaller). */
const CALLER_CHECK = Symbol('callerCheck');
type WithCallerCheck = { [CALLER_CHECK]?: () => Promise<void> };

/**
 * The same, for a caller named by `access_token` in the body (contract §6). A token field sent before the file
 * (as homeland's clients send it) is checked before the file is read: a stranger's upload is refused at its
 * first bytes. One sent after the file is checked once the body is read (at most 5 MiB).
 */
const receiveNamingCaller = multer({
  ...RECEIVED,
  fileFilter: (req, _file, accept) => {
    const check = (req as WithCallerCheck)[CALLER_CHECK];
    if (!check) return accept(null, true);
    check().then(
      () => accept(null, true),
      (error: Error) => accept(error, false),
    );
  },
}).single('file');

/** multer's and busboy's refusals, as the contract's: too large is 413, anything else malformed is 400. */
function uploadError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'LIMIT_FILE_SIZE') return new BodyRejected(413, 'The file exceeds 5 MiB');
  if (error instanceof multerCore.MulterError && error.code === 'LIMIT_UNEXPECTED_FILE') {
    return new BodyRejected(
      400,
      `file is missing: a file came as the field "${error.field}"; send the image as the field "file"`,
    );
  }
  if (error instanceof multerCore.MulterError) return new BodyRejected(400, `file: ${error.message}`);
  if (error instanceof Error && /multipart|boundary|part|form/i.test(error.message)) {
    return new BodyRejected(400, `The multipart body could not be read: ${error.message}`);
  }
  return error;
}

const PhotoBody = z.object({
  file: z.string().meta({
    format: 'binary',
    description:
      'a PNG, JPEG, GIF or WebP image, at most 5 MiB and 50 megapixels (judged by its bytes); kept without its metadata, ' +
      'turned upright, at most 4,096 pixels on its long side',
  }),
  access_token: z.string().optional().meta({
    description:
      'the access token, for clients that send it as a form field (the Authorization header wins; best sent before the file)',
  }),
});

/** What the upload routes call. */
export interface UploadRouteUseCases {
  uploadPhoto: UploadPhoto;
  listOwnUploads: ListOwnUploads;
  deleteUpload: DeleteUpload;
}
export const UploadRouteUseCases = Symbol.for('UploadRouteUseCases');

/**
 * `POST /photos` (contract §7, §19): multipart field `file` → `{"image_url": …}`; the caller's uploads and deleting
 * one.
 */
export function uploadApiRoutes(app: UploadRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();
  const params = (ctx: { state: { params: Params } }) => ctx.state.params;

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/photos',
      summary: 'Upload a photo',
      description:
        'Cleaned (metadata stripped after applying its orientation, at most 4,096 pixels on its long side, an animation ' +
        'kept), stored under its content’s hash, and recorded for the caller: the same bytes again give the same ' +
        'image_url. UPLOADS_PER_DAY a day (429 past it); blocked or silenced users: 403; the store unreachable: 503.',
      tag: 'Uploads',
      access: 'user',
      body: { schema: PhotoBody, media: ['multipart'], streamed: true },
      response: {
        schema: z.strictObject({ image_url: z.url() }),
        example: { image_url: examples.upload.url },
        description: 'Where the photo is served',
      },
      errors: [400, 403, 413, 429, 503],
    },
    async (ctx) => {
      let actor = await actorOf(ctx);
      if (actor === null && callerMayBeInBody(ctx)) {
        // Named, if at all, by the body's access_token field: checked as soon as it has been read.
        const fields = (): Record<string, unknown> => (ctx.req as { body?: Record<string, unknown> }).body ?? {};
        (ctx.req as WithCallerCheck)[CALLER_CHECK] = async () => {
          if (fields().access_token === undefined) return; // it may come after the file
          actor = requireUser(await callerInBody(ctx, fields().access_token));
        };
        await receiveNamingCaller(ctx as never, async () => undefined).catch((error: unknown) => {
          throw uploadError(error);
        });
        actor ??= await callerInBody(ctx, (ctx.request as { body?: Record<string, unknown> }).body?.access_token);
      } else {
        requireUser(actor); // before reading up to 5 MiB from a stranger
        await receive(ctx as never, async () => undefined).catch((error: unknown) => {
          throw uploadError(error);
        });
      }
      const file = (ctx as Context & { file?: { buffer: Buffer; originalname?: string } }).file;
      ctx.body = {
        image_url: await app.uploadPhoto.execute(actor, file && { bytes: file.buffer, name: file.originalname ?? null }),
      };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/me/uploads',
      summary: 'Your uploads',
      description: 'What you uploaded, newest first: each file’s URL, original name, type, size, SHA-256 and dimensions.',
      tag: 'Uploads',
      access: 'user',
      query: PageParams,
      response: {
        schema: z.strictObject({ uploads: z.array(UploadSchema) }),
        example: { uploads: [wire.upload(examples.upload)] },
        description: 'A page of uploads',
      },
      errors: [400],
    },
    async (ctx) => {
      const uploads = await app.listOwnUploads.execute(await actorOf(ctx), params(ctx));
      ctx.body = { uploads: uploads.map((upload) => wire.upload(upload)) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/uploads/:id',
      summary: 'Delete an upload',
      description:
        'Its uploader or an administrator (someone else’s upload is not found). The file goes with the last record ' +
        'that names it: the same bytes uploaded by another stay. An administrator’s deletion is audited, with `reason`.',
      tag: 'Uploads',
      access: 'user',
      params: IdPath,
      query: ReasonQuery,
      response: { schema: OkSchema, example: examples.ok, description: 'Done' },
      errors: [400, 404],
    },
    async (ctx) => {
      await app.deleteUpload.execute(await actorOf(ctx), pathId(ctx.params.id), readReason(params(ctx).reason));
      ctx.body = OK;
    },
  );

  return router;
}
