import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type SharpModule from 'sharp';
import type { CleanImage, ImageProcessor, ImageRefusal } from '../../application/uploads/ports.js';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from '../../domain/uploads/upload.js';

/** sharp (libvips), loaded at the first image: a process that cleans none (forumctl, mostly) does not load it. */
let loaded: typeof SharpModule | undefined;
const sharp = (...args: Parameters<typeof SharpModule>) =>
  (loaded ??= createRequire(import.meta.url)('sharp') as typeof SharpModule)(...args);

/** The formats kept, each written again as itself. */
const FORMATS = {
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  png: { extension: 'png', contentType: 'image/png' },
  gif: { extension: 'gif', contentType: 'image/gif' },
  webp: { extension: 'webp', contentType: 'image/webp' },
} as const;
type Kept = keyof typeof FORMATS;

const isKept = (format: string | undefined): format is Kept => format !== undefined && format in FORMATS;

/**
 * Images cleaned with sharp (libvips, prebuilt; contract §19). The header is read first: anything but PNG, JPEG, GIF
 * or WebP is refused, and so is an image that declares more than MAX_IMAGE_PIXELS a frame, before a pixel is
 * decoded (a decompression bomb is a small file declaring huge dimensions); decoding is bounded by the same limit
 * for all frames together. Then the EXIF orientation is applied, the image scaled down to MAX_IMAGE_SIDE on its long
 * side (never up), and written again in its own format: sharp writes no metadata unless asked (no EXIF, GPS, XMP or
 * ICC), and an animated GIF or WebP stays animated, frame by frame. The same input gives the same bytes, so the same
 * upload is stored once.
 */
export class SharpImages implements ImageProcessor {
  async clean(bytes: Uint8Array): Promise<CleanImage | ImageRefusal> {
    // sharp refuses an empty input as it is made, before any promise.
    if (bytes.length === 0) return 'not-an-image';
    // The header only (nothing decoded): sharp's own pixel limit is lifted for it, ours is checked below.
    const metadata = await sharp(bytes, { limitInputPixels: false })
      .metadata()
      .catch(() => null);
    if (!metadata || !isKept(metadata.format) || !metadata.width || !metadata.height) return 'not-an-image';
    const frameHeight = metadata.pageHeight ?? metadata.height;
    if (metadata.width * frameHeight > MAX_IMAGE_PIXELS) return 'too-many-pixels';
    const animated = (metadata.pages ?? 1) > 1 && (metadata.format === 'gif' || metadata.format === 'webp');
    let image = sharp(bytes, { animated, limitInputPixels: MAX_IMAGE_PIXELS });
    // EXIF orientation (a phone's photo): turned upright, then the tag goes with the rest of the metadata.
    if (!animated) image = image.rotate();
    image = image.resize({ width: MAX_IMAGE_SIDE, height: MAX_IMAGE_SIDE, fit: 'inside', withoutEnlargement: true });
    const written = await image
      .toFormat(metadata.format)
      .toBuffer({ resolveWithObject: true })
      // A header that promised an image whose data then does not decode (truncated, corrupt, another format's bytes
      // behind it): libvips says so in its decoder's own words (`vipspng: libpng read error`, `VipsJpeg: Premature end
      // of input file`, …), none of them a fault of ours.
      .catch((error: Error) => (/pixel limit/i.test(error.message) ? ('too-many-pixels' as const) : ('not-an-image' as const)));
    if (typeof written === 'string') return written;
    const { data, info } = written;
    return {
      bytes: data,
      byteSize: data.length,
      contentType: FORMATS[metadata.format].contentType,
      extension: FORMATS[metadata.format].extension,
      width: info.width,
      height: animated ? (info.pageHeight ?? info.height) : info.height,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
  }
}
