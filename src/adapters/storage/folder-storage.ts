import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { UploadStorage } from '../../application/ports.js';

/** The keys this storage writes (see UploadPhoto): anything else is not a file of ours. */
const KEY = /^photos\/\d{4}\/\d{2}\/[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** An uploaded file, opened for sending. */
export interface StoredFile {
  stream: Readable;
  size: number;
  modified: Date;
  contentType: string;
}

/**
 * Uploads in a folder on this machine (`UPLOADS_DIR`), served back by this service under `PUBLIC_URL/uploads/`.
 * Keys are checked against the one shape the service writes, so no client-chosen path ever reaches the file
 * system, on the way in or out.
 */
export class FolderStorage implements UploadStorage {
  private readonly root: string;
  private readonly publicUrl: string;

  constructor(root: string, publicUrl: string) {
    this.root = path.resolve(root);
    this.publicUrl = publicUrl.replace(/\/+$/, '');
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<string> {
    if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
    const file = path.join(this.root, key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file.
    const partial = `${file}.partial`;
    await writeFile(partial, bytes, { flag: 'wx' });
    await rename(partial, file);
    return `${this.publicUrl}/uploads/${key}`;
  }

  /** The file under `key`, or null when there is none (or `key` is not one this storage writes). */
  async open(key: string): Promise<StoredFile | null> {
    const match = KEY.exec(key);
    if (!match) return null;
    const file = path.join(this.root, key);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    return { stream: createReadStream(file), size: info.size, modified: info.mtime, contentType: CONTENT_TYPES[match[1]!]! };
  }
}
