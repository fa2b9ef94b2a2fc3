import { RuleViolated } from '../../domain/shared/errors.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { Progress } from '../maintenance/maintenance.js';
import type { UploadStorage } from '../ports.js';

/** The stores uploads may be moved between: the folder (UPLOADS_DIR) and the S3-compatible store (S3_*), if set. */
export interface UploadStores {
  folder: UploadStorage;
  /** Null when no S3-compatible store is configured. */
  s3: UploadStorage | null;
}

export const UPLOAD_STORES = ['folder', 's3'] as const;
export type UploadStoreName = (typeof UPLOAD_STORES)[number];

/**
 * forumctl uploads migrate --to s3 (contract §19; administrators): copies every file of one store into the other, the
 * files already there left as they are (keys name their content, so the same key is the same file): run it again
 * after a failure, or once more after switching UPLOADS_STORE, and it copies what is missing. URLs stay the same:
 * they are PUBLIC_URL/uploads/…, which the service serves from whichever store it uses (unless S3_PUBLIC_URL is set,
 * for new uploads only).
 */
export class MigrateUploads {
  constructor(private readonly stores: UploadStores) {}

  async execute(
    actor: Actor,
    to: UploadStoreName,
    onProgress: Progress = () => undefined,
  ): Promise<{ from: UploadStoreName; to: UploadStoreName; files: number; copied: number }> {
    requireAdmin(actor);
    const from: UploadStoreName = to === 's3' ? 'folder' : 's3';
    const source = this.stores[from];
    const target = this.stores[to];
    if (!source || !target) {
      throw new RuleViolated('No S3-compatible store is configured: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, the keys)');
    }
    const keys: string[] = [];
    for await (const key of source.keys()) keys.push(key);
    let copied = 0;
    onProgress(0, keys.length);
    for (const [i, key] of keys.entries()) {
      if (!(await target.exists(key))) {
        const file = await source.read(key);
        if (file) {
          await target.put(key, file.bytes, file.contentType);
          copied++;
        }
      }
      onProgress(i + 1, keys.length);
    }
    return { from, to, files: keys.length, copied };
  }
}
