import { z } from 'zod';
import { moderationActed } from '../../domain/events.js';
import { Forbidden, NotFound } from '../../domain/shared/errors.js';
import { mayDeleteUpload } from '../../domain/uploads/upload.js';
import { type Actor, requireAdmin, requireUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { PageParams, readAll, wholeNumber, read } from '../inputs.js';
import type { Clock, UnitOfWork, UploadStorage } from '../ports.js';
import type { UploadRecords, UploadView } from './ports.js';

/** The caller's own uploads, newest first (`GET /api/v3/users/me/uploads`). */
export class ListOwnUploads {
  constructor(private readonly records: UploadRecords) {}

  async execute(actor: Actor, raw: unknown): Promise<UploadView[]> {
    const user = requireUser(actor);
    return this.records.list(user.id, readAll(PageParams, raw));
  }
}

/** Every upload, or one user's, newest first (forumctl uploads list; administrators). */
export class ListUploads {
  constructor(private readonly records: UploadRecords) {}

  async execute(actor: Actor, userId: number | null, raw: unknown): Promise<UploadView[]> {
    requireAdmin(actor);
    return this.records.list(userId, readAll(PageParams, raw));
  }
}

/**
 * An upload deleted by its uploader or an administrator (contract §19): its record goes; its file goes with the last
 * record that names it, the file held meanwhile (a file is never gone while a record names it). An administrator's
 * deletion of someone else's upload is audited. Another member's upload exists: 403 (§2's order: the record, then the
 * permission).
 */
export class DeleteUpload {
  constructor(
    private readonly records: UploadRecords,
    private readonly storage: UploadStorage,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, id: number, reason: string | null = null): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const upload = await this.records.find(id);
      if (!upload) throw new NotFound('upload');
      if (!mayDeleteUpload(user, { userId: upload.user.id })) throw new Forbidden();
      await this.records.lockFile(upload.sha256);
      const removed = await this.records.remove(id);
      if (!removed) throw new NotFound('upload');
      if (upload.user.id !== user.id) {
        const target = { type: 'Upload', id } as const;
        await this.events.record(moderationActed('upload.delete', user.id, target, { sha256: [upload.sha256, null] }, reason));
      }
      // Held: no upload of the same bytes can record itself meanwhile; a store that fails rolls the deletion back.
      if (!removed.fileInUse) await this.storage.remove(upload.key);
    });
  }
}

/** How old an unused upload must be before the purge takes it, in days. */
export const PurgeOrphansParams = z.object({ older_than: wholeNumber(1, 36_500) });

/**
 * forumctl uploads purge-orphans (administrators): the uploads older than `days` that no topic or reply refers to
 * (held and hidden ones count: they may still be published), records and then their files, in batches. Returns how
 * many records and files went.
 */
export class PurgeOrphanUploads {
  constructor(
    private readonly records: UploadRecords,
    private readonly storage: UploadStorage,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, raw: { older_than?: unknown }): Promise<{ uploads: number; files: number }> {
    requireAdmin(actor);
    const days = read(PurgeOrphansParams.shape.older_than, raw.older_than, 'older_than');
    const before = new Date(this.clock.now().getTime() - days * 86_400_000);
    let uploads = 0;
    let files = 0;
    for (;;) {
      const batch = await this.records.orphans(before, 500);
      if (batch.length === 0) break;
      files += await this.uow.run(async () => {
        let gone = 0;
        for (const upload of batch) {
          await this.records.lockFile(upload.sha256);
          const removed = await this.records.remove(upload.id);
          if (removed && !removed.fileInUse) {
            await this.storage.remove(upload.key);
            gone++;
          }
        }
        return gone;
      });
      uploads += batch.length;
    }
    return { uploads, files };
  }
}
