import { ContainerModule } from 'inversify';
import { ImportHomeland } from '../application/imports/import-homeland.js';
import { HomelandImporter, ImportFiles } from '../application/imports/ports.js';
import { Recount } from '../application/maintenance/maintenance.js';
import { Clock, MarkdownRenderer, UploadStorage } from '../application/ports.js';
import { ReindexSearch } from '../application/search/reindex.js';
import { ImageProcessor } from '../application/uploads/ports.js';
import { PgHomelandImporter } from '../adapters/persistence/homeland/importer.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { FolderImportFiles } from '../adapters/system/import-files.js';
import type { Config } from '../config.js';
import { AppConfig, provide, SqlRunner } from './bind.js';

/** Moving a community here (forumctl import, contract §20). */
export const importsModule = new ContainerModule(({ bind }) => {
  provide(bind, HomelandImporter, (sql: Sql) => new PgHomelandImporter(sql), [SqlRunner]);
  bind(ImportFiles).toConstantValue(new FolderImportFiles());
  provide(
    bind,
    ImportHomeland,
    (
      importer: HomelandImporter,
      markdown: MarkdownRenderer,
      images: ImageProcessor,
      storage: UploadStorage,
      files: ImportFiles,
      recount: Recount,
      reindex: ReindexSearch,
      clock: Clock,
      config: Config,
    ) =>
      new ImportHomeland(importer, markdown, images, storage, files, recount, reindex, clock, {
        accessTokenSeconds: config.tokenLifetimeSeconds,
        refreshTokenSeconds: config.refreshTokenLifetimeSeconds,
      }),
    [HomelandImporter, MarkdownRenderer, ImageProcessor, UploadStorage, ImportFiles, Recount, ReindexSearch, Clock, AppConfig],
  );
});
