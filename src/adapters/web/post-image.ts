import multer from '@koa/multer';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ActingUser } from '../../application/actor.js';
import { PHOTO_MAX_BYTES, type ReceivedFile, type UploadPhoto } from '../../application/uploads/upload-photo.js';
import { BODY_LIMIT_BYTES, BodyRejected, bodyTaken, discardRest } from '../presentation/request-body.js';
import { wordsOf } from '../presentation/words/index.js';
import { page, type PageOperation } from './docs.js';
import { type FormPage, handleForm, paramsOf, refuse } from './forms.js';
import { frameOf } from './frame.js';
import { IMAGE_FIELD } from './views/forum.js';

/**
 * An image in what one writes (contract §21b, §19). With scripts off, a post's form carries a file field, `image`,
 * posted with the form (multipart): the image is uploaded as the API's POST /photos uploads it, and its Markdown is
 * added to the body before the form is read, so that a preview shows it and a refused form keeps it. With scripts on,
 * the page's script uploads it at once (POST /photos, the page's own) and puts the Markdown where the cursor is.
 */

/** The image field, as a form's schema documents it. */
export const ImageField = z.object({
  [IMAGE_FIELD]: z.string().optional().meta({
    format: 'binary',
    description: 'An image to put into the post (PNG, JPEG, GIF or WebP, at most 5 MiB): its Markdown ends the body',
  }),
});

/** A form with an image carries at most the image and the text a form may carry, and the parts' headers. */
const FORM_WITH_IMAGE_LIMIT_BYTES = PHOTO_MAX_BYTES + BODY_LIMIT_BYTES + 64 * 1024;

/** One file of at most 5 MiB, kept in memory, and the form's few fields, of at most 1 MiB (as every body's). */
const RECEIVING = {
  storage: multer.memoryStorage(),
  // File names in UTF-8, as browsers send them (busboy's default reads them as Latin-1: 猫.png came as "ç\u008c«.png").
  // (multer takes it; its types do not name it.)
  defParamCharset: 'utf8',
  limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 10, fieldSize: BODY_LIMIT_BYTES, parts: 12, headerPairs: 100 },
};
const receive = multer(RECEIVING).single(IMAGE_FIELD);

/** What a form's multipart body brought besides its fields. */
interface Received {
  file?: ReceivedFile;
  /** The file was past 5 MiB: the form is refused, once its page can show it again. */
  tooLarge?: boolean;
}
const RECEIVED = Symbol('received');
type WithReceived = { [RECEIVED]?: Received };

/**
 * Reads a form's multipart body: its fields join the request's parameters (the body wins, as everywhere), its image
 * is kept for `attachImage`. False: the form carried more than a form may (past the image's 5 MiB and 1 MiB of text
 * together, or a text past 1 MiB), and nothing of it is kept. A file past 5 MiB alone is not refused here: the form
 * it came with is, on its page, with what was typed. A body that cannot be read at all is refused as every body is.
 */
export async function receiveForm(ctx: Context): Promise<boolean> {
  bodyTaken(ctx);
  if ((ctx.request.length ?? 0) > FORM_WITH_IMAGE_LIMIT_BYTES) {
    discardRest(ctx);
    return false;
  }
  const received: Received = {};
  (ctx.state as WithReceived)[RECEIVED] = received;
  try {
    await receive(ctx as never, async () => undefined);
  } catch (error) {
    // multer reads the rest of the body before it gives up (at most the limit above), so the connection can go on.
    const code = (error as { code?: string }).code;
    if (code === 'LIMIT_FIELD_VALUE' || code === 'LIMIT_FIELD_COUNT' || code === 'LIMIT_PART_COUNT') return false;
    if (code !== 'LIMIT_FILE_SIZE') throw new BodyRejected(400, `The form could not be read: ${(error as Error).message}`);
    received.tooLarge = true;
  }
  const fields = ((ctx.request as { body?: unknown }).body ?? (ctx.req as { body?: unknown }).body ?? {}) as object;
  ctx.state.params = { ...paramsOf(ctx), ...fields };
  const file = (ctx as Context & { file?: { buffer: Buffer; originalname?: string; size: number } }).file;
  // A file field left empty still sends a part, with no name and no bytes.
  if (file && file.size > 0) received.file = { bytes: file.buffer, name: file.originalname ?? null };
  return true;
}

/** The alternative text of an image: its file's name without the extension, as Markdown may carry it. */
function altOf(name: string | null | undefined): string {
  const alt = (name ?? '')
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    // What Markdown would read as marks (brackets, code, emphasis, HTML) or a new line becomes a space.
    .replace(/[[\]\\`*_<>\n\r]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return alt.slice(0, 100) || 'image';
}

/** Markdown that shows an uploaded image. */
export function imageMarkdown(url: string, name: string | null | undefined): string {
  return `![${altOf(name)}](${url})`;
}

/**
 * The image this request's form brought, uploaded for `user` (the API's UploadPhoto: its limits, its refusals), with
 * the Markdown that shows it; null when it brought none. `page` shows the form again if the image is refused.
 */
export async function uploadedImage(
  ctx: Context,
  page: FormPage,
  upload: UploadPhoto,
  user: ActingUser,
): Promise<{ url: string; markdown: string } | null> {
  const received = (ctx.state as WithReceived)[RECEIVED];
  if (!received || (!received.file && !received.tooLarge)) return null;
  handleForm(ctx, page);
  if (received.tooLarge) refuse(wordsOf(frameOf(ctx).locale).forum.imageTooLarge, 413);
  const url = await upload.execute(user, received.file);
  return { url, markdown: imageMarkdown(url, received.file!.name) };
}

/**
 * The image a post's form brought (see uploadedImage), added at the end of the form's body. It is uploaded before the
 * form is read, so that a refused form keeps it (and a preview shows it): an upload of a form refused afterwards still
 * counts for the day, as the API's would had the client uploaded it first.
 */
export async function attachImage(ctx: Context, page: FormPage, upload: UploadPhoto, user: ActingUser): Promise<void> {
  const params = paramsOf(ctx);
  // A body that is not text (sent twice) is the form's to refuse, with nothing added to it.
  if (params.body !== undefined && typeof params.body !== 'string') return;
  const image = await uploadedImage(ctx, page, upload, user);
  if (!image) return;
  const body = typeof params.body === 'string' ? params.body.trimEnd() : '';
  params.body = `${body}${body ? '\n\n' : ''}${image.markdown}\n`;
}

/**
 * A post's form as its operation documents it: its fields and the image field, read by the page (`streamed`), sent as
 * a form or, with a file, as multipart (`media`); an image past 5 MiB refuses it (413, the page again).
 */
export function withImage<O extends PageOperation & { body: { schema: z.ZodObject } }>(
  operation: O,
  media: readonly ('form' | 'multipart')[] = ['form', 'multipart'],
): O {
  return {
    ...operation,
    body: { schema: operation.body.schema.extend(ImageField.shape), media, streamed: true },
    otherResponses: {
      ...operation.otherResponses,
      413: page('The image is past 5 MiB: the form again, with what was typed (the image aside)'),
    },
  };
}
