import { InvalidInput } from '../../domain/shared/errors.js';
import { devisePasswordPrefix } from '../accounts/devise-passwords.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { Recount } from '../maintenance/maintenance.js';
import type { Clock, MarkdownRenderer, UploadStorage } from '../ports.js';
import type { ReindexSearch } from '../search/reindex.js';
import { fileKey, type ImageProcessor } from '../uploads/ports.js';
import { photoLinkRewriter } from './photo-links.js';
import type {
  HomelandImporter,
  ImportFiles,
  HomelandImportOptions,
  HomelandImportReport,
  HomelandImportRun,
  ImportedPhoto,
  ImportedTable,
  ImportProgress,
  PostKind,
} from './ports.js';

const BODY_BATCH = 2_000;

/** The pepper homeland ships in config/initializers/devise.rb (at 9f5dbde): `--devise-pepper`'s default (§20). */
export const HOMELAND_DEVISE_PEPPER =
  'c7d4ed7d1ea1a7fee16e8a7ef80ca1d391fc3bb8e79a2da9ca23a68dc5c82e6cf3715a6f3d8369335372ab8be36a526bc2e778f17075ed241a1c14c5b93eea60';

/** Token lifetimes, as the service gives its own (ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL). */
export interface TokenLifetimes {
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

/**
 * `forumctl import homeland` (contract §20): every record of a homeland database, ids kept, in one transaction of
 * this database over one snapshot of the source; a second run applies only what changed since. Afterwards every
 * counter is recounted by our rules and the search index rebuilt. docs/import-homeland.md is the mapping.
 */
export class ImportHomeland {
  constructor(
    private readonly importer: HomelandImporter,
    private readonly markdown: MarkdownRenderer,
    private readonly images: ImageProcessor,
    private readonly storage: UploadStorage,
    private readonly files: ImportFiles,
    private readonly recount: Recount,
    private readonly reindex: ReindexSearch,
    private readonly clock: Clock,
    private readonly lifetimes: TokenLifetimes,
  ) {}

  async execute(
    actor: Actor,
    options: HomelandImportOptions,
    progress: ImportProgress = () => () => undefined,
  ): Promise<HomelandImportReport> {
    requireAdmin(actor);
    const run = await this.importer.open(options.from);
    let report: HomelandImportReport;
    try {
      report = await this.importInto(run, options, progress);
    } catch (error) {
      await run.abandon();
      throw error;
    }
    // Derived by our rules, after the rows are in (each its own short statements, as `maintenance recount` does);
    // a run that changed nothing leaves them as the last run made them.
    const changed = report.tables.some((table) => table.inserted + table.updated + table.removed > 0);
    if (changed) {
      report.recounted = await this.timed(report, 'recount', () =>
        this.recount.execute({ onProgress: (family) => progress(`recount ${family}`) }),
      );
      report.indexed = await this.timed(report, 'index', () =>
        this.reindex.execute({}, (kind, done, total) => progress(`index ${kind}`)(done, total)),
      );
    }
    return report;
  }

  private async importInto(
    run: HomelandImportRun,
    options: HomelandImportOptions,
    progress: ImportProgress,
  ): Promise<HomelandImportReport> {
    // Filled as the run goes: its phases' times first, the rest once the rows are in.
    const report = { seconds: {} } as HomelandImportReport;
    const sourceVersion = await run.sourceVersion();
    const repeated = await run.checkTarget();
    await this.timed(report, 'read', () => run.stage(progress));
    const conflicts = await run.conflicts(options);
    if (conflicts.length > 0) {
      throw new InvalidInput(
        'from',
        `nothing was imported: ${conflicts.length} source row(s) cannot be kept as they are:\n- ${conflicts.join('\n- ')}`,
      );
    }
    const notes = await run.makeRoomForBuiltIns();
    const photos = await this.timed(report, 'photos', () => this.importPhotos(run, options, progress));
    await this.timed(report, 'render', async () => {
      for (const kind of ['topics', 'replies'] as const) {
        if (photos.urls.size > 0) await this.rewritePhotoLinks(run, kind, photos.urls);
        await this.render(run, kind, progress);
      }
    });
    const now = this.clock.now();
    const tables = await this.timed(report, 'write', () =>
      run.apply({ options, passwordPrefix: devisePasswordPrefix(options.devisePepper), now, ...this.lifetimes }, progress),
    );
    const photoTable = tables.find((table) => table.table === 'uploads');
    if (photoTable) mergeSkips(photoTable, photos.skipped);
    notes.push(...(await run.accountNotes(options)));
    Object.assign(report, { sourceVersion, repeated, tables, notes, recounted: {}, indexed: {} });
    await this.timed(report, 'commit', () => run.commit(report));
    return report;
  }

  /** Runs one phase of the run, keeping its wall time in the report (operators plan the last run by them). */
  private async timed<T>(report: HomelandImportReport, phase: string, work: () => Promise<T>): Promise<T> {
    const started = this.clock.now().getTime();
    try {
      return await work();
    } finally {
      report.seconds[phase] = (this.clock.now().getTime() - started) / 1000;
    }
  }

  /**
   * Each photo's file goes through the upload pipeline (§19: cleaned, content-addressed) into the upload store; its
   * record keeps the photo's id. Photos an earlier run imported are not read again: their URLs are known.
   */
  private async importPhotos(
    run: HomelandImportRun,
    options: HomelandImportOptions,
    progress: ImportProgress,
  ): Promise<{ urls: Map<string, string>; skipped: Record<string, number> }> {
    const urls = new Map<string, string>();
    const skipped: Record<string, number> = {};
    const { toImport, imported } = await run.photos();
    for (const photo of imported) urls.set(photo.image, this.storage.urlOf(fileKey(photo.sha256, photo.extension)));
    if (options.uploads === null) {
      if (toImport.length > 0) skipped['no --uploads folder given'] = toImport.length;
      return { urls, skipped };
    }
    const bar = progress('photo files');
    const stored: ImportedPhoto[] = [];
    let done = 0;
    for (const photo of toImport) {
      const bytes = await this.files.read(options.uploads, `photo/${photo.image}`);
      const image = bytes === null ? null : await this.images.clean(bytes);
      if (image === null) skipped['file missing'] = (skipped['file missing'] ?? 0) + 1;
      else if (typeof image === 'string') skipped['not an image we keep'] = (skipped['not an image we keep'] ?? 0) + 1;
      else {
        const key = fileKey(image.sha256, image.extension);
        await this.storage.put(key, image.bytes, image.contentType);
        urls.set(photo.image, this.storage.urlOf(key));
        const { bytes: _bytes, ...kept } = image;
        stored.push({ id: photo.id, userId: photo.userId, image: photo.image, createdAt: photo.createdAt, ...kept });
      }
      bar(++done, toImport.length);
    }
    await run.recordPhotos(stored);
    return { urls, skipped };
  }

  private async rewritePhotoLinks(run: HomelandImportRun, kind: PostKind, urls: ReadonlyMap<string, string>): Promise<void> {
    const rewrite = photoLinkRewriter(urls);
    for await (const batch of run.bodiesWithPhotos(kind, BODY_BATCH)) {
      const changed = batch
        .map((post) => ({ id: post.id, body: rewrite(post.body) }))
        .filter((post, i) => post.body !== batch[i]!.body);
      if (changed.length > 0) await run.rewriteBodies(kind, changed);
    }
  }

  /** Bodies new or changed since the last run get their HTML from our renderer (§5); the others keep theirs. */
  private async render(run: HomelandImportRun, kind: PostKind, progress: ImportProgress): Promise<void> {
    const total = await run.countBodiesToRender(kind);
    const bar = progress(`render ${kind}`);
    let done = 0;
    bar(0, total);
    for await (const batch of run.bodiesToRender(kind, BODY_BATCH)) {
      await run.setRendered(
        kind,
        batch.map((post) => ({ id: post.id, html: this.markdown.render(post.body).html })),
      );
      done += batch.length;
      bar(done, total);
    }
  }
}

function mergeSkips(table: ImportedTable, skipped: Record<string, number>): void {
  for (const [why, count] of Object.entries(skipped)) {
    table.skipped[why] = (table.skipped[why] ?? 0) + count;
  }
}
