import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UploadStorage } from '../../application/ports.js';
import { type StoredFile, contentTypeOf } from './file-keys.js';

/**
 * Uploads in a folder on this machine (`UPLOADS_DIR`, UPLOADS_STORE=folder, the default), served back by this service
 * under `PUBLIC_URL/uploads/`. One host only: several hosts each see their own folder (UPLOADS_STORE=s3 for them).
 * Keys are checked against the shapes the service writes (file-keys.ts), on the way in and out.
 */
export class FolderStorage implements UploadStorage {
  private readonly root: string;
  private readonly publicUrl: string;

  constructor(root: string, publicUrl: string) {
    this.root = path.resolve(root);
    this.publicUrl = publicUrl.replace(/\/+$/, '');
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    const file = this.fileOf(key);
    if (!file) throw new Error(`not a storage key: ${key}`);
    if (await this.exists(key)) return;
    await mkdir(path.dirname(file), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file; two writers of one key write the same bytes.
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    await writeFile(partial, bytes, { flag: 'wx' });
    await rename(partial, file);
  }

  async read(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    const file = this.fileOf(key);
    if (!file) return null;
    const bytes = await readFile(file).catch(() => null);
    return bytes && { bytes, contentType: contentTypeOf(key)! };
  }

  async exists(key: string): Promise<boolean> {
    const file = this.fileOf(key);
    return file !== null && (await stat(file).catch(() => null))?.isFile() === true;
  }

  async remove(key: string): Promise<void> {
    const file = this.fileOf(key);
    if (file) await rm(file, { force: true });
  }

  async *keys(): AsyncIterable<string> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (contentTypeOf(key)) yield key;
    }
  }

  urlOf(key: string): string {
    return `${this.publicUrl}/uploads/${key}`;
  }

  /** The file under `key`, opened for sending, or null when there is none (or `key` is not one of ours). */
  async open(key: string): Promise<StoredFile | null> {
    const file = this.fileOf(key);
    if (!file) return null;
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return null;
    return { stream: createReadStream(file), size: info.size, modified: info.mtime, contentType: contentTypeOf(key)! };
  }

  private fileOf(key: string): string | null {
    return contentTypeOf(key) ? path.join(this.root, key) : null;
  }
}
