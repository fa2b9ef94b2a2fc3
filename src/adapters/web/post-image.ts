import multer from '@koa/multer';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ActingUser } from '../../application/actor.js';
import { PHOTO_MAX_BYTES, type ReceivedFile, type UploadPhoto } from '../../application/uploads/upload-photo.js';
import { InvalidInput } from '../../domain/shared/errors.js';
import { wordsOf } from '../presentation/words/index.js';
import { type FormPage, handleForm, paramsOf, refuse } from './forms.js';
import { frameOf } from './frame.js';

/**
 * An image in what one writes (contract §21b, §19). With scripts off, a post's form carries a file field, `image`,
 * posted with the form (multipart): the image is uploaded as the API's POST /photos uploads it, and its Markdown is
 * added to the body before the form is read, so that a preview shows it and a refused form keeps it. With scripts on,
 * the page's script uploads it at once (POST /photos, the page's own) and puts the Markdown where the cursor is.
 */

/** The file field of a post's form. */
export const IMAGE_FIELD = 'image';

/** The image field, as a form's schema documents it. */
export const ImageField = z.object({
  [IMAGE_FIELD]: z.string().optional().meta({
    format: 'binary',
    description: 'An image to put into the post (PNG, JPEG, GIF or WebP, at most 5 MiB): its Markdown ends the body',
  }),
});

/** One file of at most 5 MiB, kept in memory, and the form's few fields (a body is at most 1 MiB, as the API's). */
const receive = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 20, fieldSize: 1024 * 1024, parts: 24, headerPairs: 100 },
}).single(IMAGE_FIELD);

/** What a form's multipart body brought besides its fields. */
interface Received {
  file?: ReceivedFile;
  /** The file was past 5 MiB: the form is refused, once its page can show it again. */
  tooLarge?: boolean;
}
const RECEIVED = Symbol('received');
type WithReceived = { [RECEIVED]?: Received };

/**
 * Whether this request is a form with a file that its route reads itself (the body reader leaves such bodies to
 * the routes whose operations say `streamed`), and has not read yet.
 */
export function awaitsItsBody(ctx: Context): boolean {
  return typeof ctx.is('multipart') === 'string' && ctx.request.body === undefined && !(RECEIVED in ctx.state);
}

/**
 * Reads a form's multipart body: its fields join the request's parameters (the body wins, as everywhere), its image
 * is kept for `attachImage`. A file past 5 MiB is not an error yet: the form it came with is refused on its page.
 */
export async function receiveForm(ctx: Context): Promise<void> {
  const received: Received = {};
  (ctx.state as WithReceived)[RECEIVED] = received;
  try {
    await receive(ctx as never, async () => undefined);
  } catch (error) {
    // multer has read the rest of the body by now, so the connection can carry the page.
    if ((error as { code?: string }).code !== 'LIMIT_FILE_SIZE') {
      throw new InvalidInput('body', `The form could not be read: ${(error as Error).message}`);
    }
    received.tooLarge = true;
  }
  const fields = ((ctx.request as { body?: unknown }).body ?? (ctx.req as { body?: unknown }).body ?? {}) as object;
  ctx.state.params = { ...paramsOf(ctx), ...fields };
  const file = (ctx as Context & { file?: { buffer: Buffer; originalname?: string; size: number } }).file;
  // A file field left empty still sends a part, with no name and no bytes.
  if (file && file.size > 0) received.file = { bytes: file.buffer, name: file.originalname ?? null };
}

/** The alternative text of an image: its file's name without the extension, as Markdown may carry it. */
function altOf(name: string | null | undefined): string {
  const alt = (name ?? '')
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/[[\]\\\n\r]/g, ' ')
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
  if (received.tooLarge) refuse(wordsOf(frameOf(ctx).locale).forum.imageTooLarge);
  const url = await upload.execute(user, received.file);
  return { url, markdown: imageMarkdown(url, received.file!.name) };
}

/** The image a post's form brought (see uploadedImage), added at the end of the form's body. */
export async function attachImage(ctx: Context, page: FormPage, upload: UploadPhoto, user: ActingUser): Promise<void> {
  const image = await uploadedImage(ctx, page, upload, user);
  if (!image) return;
  const params = paramsOf(ctx);
  const body = typeof params.body === 'string' ? params.body.trimEnd() : '';
  params.body = `${body}${body ? '\n\n' : ''}${image.markdown}\n`;
}

/**
 * A post's form as its operation documents it: its fields and the image field, read by the page (`streamed`); sent
 * as a form or, with a file, as multipart (`media`).
 */
export function withImageField<S extends z.ZodObject>(
  schema: S,
  media: readonly ('form' | 'multipart')[] = ['form', 'multipart'],
) {
  return { schema: schema.extend(ImageField.shape), media, streamed: true };
}
