import { ContainerModule } from 'inversify';
import { DomainEvents } from '../application/events.js';
import { Clock, UnitOfWork, UploadStorage } from '../application/ports.js';
import { PostingRules } from '../application/review/posting-rules.js';
import { DeleteUpload, ListOwnUploads, ListUploads, PurgeOrphanUploads } from '../application/uploads/manage-uploads.js';
import { MigrateUploads, type UploadStores } from '../application/uploads/migrate-uploads.js';
import { ImageProcessor, UploadRecords } from '../application/uploads/ports.js';
import { UploadPhoto } from '../application/uploads/upload-photo.js';
import type { Config } from '../config.js';
import type { UploadedFiles } from '../adapters/api/routes/uploads.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { SqlUploadRecords } from '../adapters/persistence/posts/upload-records.js';
import { FolderStorage } from '../adapters/storage/folder-storage.js';
import { S3Storage } from '../adapters/storage/s3-storage.js';
import { SharpImages } from '../adapters/system/sharp-images.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

/** The store that serves uploads (GET /uploads/…): the one UPLOADS_STORE chooses. */
export const UploadedFilesStore = Symbol.for('UploadedFiles');
/** The S3-compatible store, or null when S3_BUCKET is not set. */
const S3Store = Symbol.for('S3Store');

/**
 * Uploads (contract §19): images cleaned on the way in, stored once by content in the store UPLOADS_STORE chooses
 * (the folder, or an S3-compatible store every host sees), recorded per uploader; the user's list and delete, an
 * administrator's, the orphans' purge, and the move from one store to the other.
 */
export const uploadsModule = new ContainerModule(({ bind }) => {
  provide(bind, FolderStorage, (config: Config) => new FolderStorage(config.uploadsDir, config.publicUrl), [AppConfig]);
  provide(bind, S3Store, (config: Config) => (config.uploads.s3 ? new S3Storage(config.uploads.s3, config.publicUrl) : null), [
    AppConfig,
  ]);
  provide(
    bind,
    UploadStorage,
    (config: Config, folder: FolderStorage, s3: S3Storage | null) => (config.uploads.store === 's3' ? s3! : folder),
    [AppConfig, FolderStorage, S3Store],
  );
  provide(bind, UploadedFilesStore, (files: FolderStorage | S3Storage): UploadedFiles => files, [UploadStorage]);
  bind(ImageProcessor).toConstantValue(new SharpImages());
  provide(bind, UploadRecords, (sql: Sql, storage: UploadStorage) => new SqlUploadRecords(sql, (key) => storage.urlOf(key)), [
    SqlRunner,
    UploadStorage,
  ]);

  const useCase = useCaseBinder(bind);
  provide(
    bind,
    UploadPhoto,
    (
      images: ImageProcessor,
      storage: UploadStorage,
      records: UploadRecords,
      rules: PostingRules,
      uow: UnitOfWork,
      clock: Clock,
      config: Config,
    ) => new UploadPhoto(images, storage, records, rules, uow, clock, config.uploads.perDay),
    [ImageProcessor, UploadStorage, UploadRecords, PostingRules, UnitOfWork, Clock, AppConfig],
  );
  useCase(ListOwnUploads, [UploadRecords]);
  useCase(ListUploads, [UploadRecords]);
  useCase(DeleteUpload, [UploadRecords, UploadStorage, DomainEvents, UnitOfWork]);
  useCase(PurgeOrphanUploads, [UploadRecords, UploadStorage, UnitOfWork, Clock]);
  provide(
    bind,
    MigrateUploads,
    (folder: FolderStorage, s3: S3Storage | null) => new MigrateUploads({ folder, s3 } satisfies UploadStores),
    [FolderStorage, S3Store],
  );
});
