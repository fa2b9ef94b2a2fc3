import type { Viewer } from '../users/role.js';

/**
 * Uploads (contract §19): every upload is a record of who sent which file. Images are cleaned on the way in; what a
 * file may be and how large is decided here, the work of decoding and encoding is the image adapter's.
 */

/** The longest side an image is kept at: larger ones are scaled down to it. */
export const MAX_IMAGE_SIDE = 4_096;
/** An image that declares more pixels than this (a decompression bomb) is refused before it is decoded. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The longest original name kept (the rest is cut). */
export const MAX_UPLOAD_NAME = 255;
/** The window of UPLOADS_PER_DAY. */
export const UPLOAD_WINDOW_HOURS = 24;

/** An upload as its rules need it: who uploaded it. */
export interface UploadFacts {
  readonly userId: number;
}

/** Who may delete an upload: its uploader, or an administrator. */
export function mayDeleteUpload(viewer: Viewer | null, upload: UploadFacts): boolean {
  return viewer !== null && (viewer.role === 'admin' || viewer.id === upload.userId);
}

/** A client's file name, as kept: its last path segment, without control characters, at most MAX_UPLOAD_NAME. */
export function uploadName(raw: string | null | undefined): string | null {
  const name = (raw ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return name === '' ? null : name.slice(0, MAX_UPLOAD_NAME);
}
