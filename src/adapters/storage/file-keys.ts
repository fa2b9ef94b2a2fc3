/**
 * The keys an upload store holds, and what each one is: the service chooses every key (never a client's name), so a
 * key of any other shape names no file of ours and never reaches a file system or a bucket.
 * - `photos/ab/<sha256>.<ext>`: an upload (contract §19), named by its content;
 * - `photos/<yyyy>/<mm>/<32 hex>.<ext>`: a photo uploaded before uploads were records, kept where it was.
 */
const KEY = /^photos\/(?:[0-9a-f]{2}\/[0-9a-f]{64}|\d{4}\/\d{2}\/[0-9a-f]{32})\.(png|jpg|gif|webp)$/;

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The content type of a key of ours, or null for anything that is not one. */
export function contentTypeOf(key: string): string | null {
  const match = KEY.exec(key);
  return match ? CONTENT_TYPES[match[1]!]! : null;
}

/** A file opened for sending (GET /uploads/…). */
export interface StoredFile {
  stream: import('node:stream').Readable;
  /** Null when the store did not say. */
  size: number | null;
  modified: Date;
  contentType: string;
}
