import type { Page } from '../read-models.js';

/**
 * An image as it is kept (contract §19): cleaned (orientation applied, then every metadata stripped: EXIF, GPS, XMP),
 * at most MAX_IMAGE_SIDE on its long side, an animation still animated; with its type, size and SHA-256, which names
 * it in the store (the same bytes are stored once).
 */
export interface CleanImage {
  bytes: Uint8Array;
  /** `bytes.length`, kept when the bytes are gone (into the store). */
  byteSize: number;
  contentType: string;
  extension: string;
  width: number;
  height: number;
  sha256: string;
}

/** Why an upload is no image we keep: not one of PNG, JPEG, GIF, WebP; or it declares too many pixels (a bomb). */
export type ImageRefusal = 'not-an-image' | 'too-many-pixels';

export interface ImageProcessor {
  /** Decodes, cleans and encodes again; never decodes an image that declares more than MAX_IMAGE_PIXELS. */
  clean(bytes: Uint8Array): Promise<CleanImage | ImageRefusal>;
}
export const ImageProcessor = Symbol.for('ImageProcessor');

/** Where a stored file is kept: its key is its SHA-256, sharded by its first two characters. */
export function fileKey(sha256: string, extension: string): string {
  return `photos/${sha256.slice(0, 2)}/${sha256}.${extension}`;
}

/** A record of an upload, as it is listed. */
export interface UploadView {
  id: number;
  user: { id: number; login: string };
  name: string | null;
  contentType: string;
  byteSize: number;
  sha256: string;
  width: number;
  height: number;
  createdAt: Date;
  /** Where its file is kept (fileKey), and the URL it is fetched from. */
  key: string;
  url: string;
}

export interface NewUpload {
  userId: number;
  name: string | null;
  image: Omit<CleanImage, 'bytes'>;
  at: Date;
}

/** The uploads' records (contract §19). */
export interface UploadRecords {
  /**
   * Holds a file (by its SHA-256) until the unit of work ends: its uploads and deletions wait for each other, so that a
   * file is never removed between a new record's writing of it and that record's commit.
   */
  lockFile(sha256: string): Promise<void>;
  /**
   * Adds the record, unless this uploader has one of the same file: that one is answered (`created` false), so the
   * same bytes uploaded again give the same record and URL.
   */
  add(upload: NewUpload): Promise<{ upload: UploadView; created: boolean }>;
  /** How many records the user made since `since`, and when the oldest of them was made. */
  recent(userId: number, since: Date): Promise<{ count: number; oldest: Date | null }>;
  /** Newest first; all users' when `userId` is null. */
  list(userId: number | null, page: Page): Promise<UploadView[]>;
  find(id: number): Promise<UploadView | null>;
  /** Deletes the record; null when there was none. `fileInUse`: another record still names its file. */
  remove(id: number): Promise<{ fileInUse: boolean } | null>;
  /**
   * Records made before `before` whose file no topic or reply (not deleted: held and hidden ones count) names in its
   * body, oldest first, at most `limit`.
   */
  orphans(before: Date, limit: number): Promise<UploadView[]>;
  /** Every upload of a user, for their export. */
  ofUser(userId: number): Promise<UploadView[]>;
}
export const UploadRecords = Symbol.for('UploadRecords');
