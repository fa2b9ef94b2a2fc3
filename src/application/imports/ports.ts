/**
 * `forumctl import homeland` (contract §20): the ports the import runs through. The adapter reads the homeland
 * database in one repeatable-read snapshot into staging tables of this service's database and applies them there,
 * set-based, in one transaction; the use case does what needs the core: Markdown, images, passwords, the report.
 * The mapping, table by table, is docs/import-homeland.md.
 */

/** What the operator asks for. */
export interface HomelandImportOptions {
  /** The homeland database's PostgreSQL URL: read, never written. */
  from: string;
  /** A folder laid out as homeland's `public/uploads` (photos under `photo/<login>/<file>`), or null: no photos. */
  uploads: string | null;
  /** devise's pepper (homeland's config/initializers/devise.rb): part of every password hash there. */
  devisePepper: string;
  /** Made administrators, besides homeland's `state = 99` and its `admin_emails` setting. */
  adminEmails: string[];
  /** New logins for source accounts whose login cannot be kept (by homeland user id). */
  renameLogins: ReadonlyMap<number, string>;
  /** New names for source nodes whose name cannot be kept (by homeland node id). */
  renameNodes: ReadonlyMap<number, string>;
}

/** What happened to one table's rows. */
export interface ImportedTable {
  /** Our table (or tables, for homeland's `actions`). */
  table: string;
  /** Rows read from the source for it. */
  read: number;
  /** New here. */
  inserted: number;
  /** Changed in the source since the last run, and changed here. */
  updated: number;
  /** Already here as they are. */
  unchanged: number;
  /** Imported by an earlier run, gone from the source since (or no longer importable): removed here. */
  removed: number;
  /** Rows not imported, counted by why. */
  skipped: Record<string, number>;
}

export interface HomelandImportReport {
  /** homeland's schema version (its newest `schema_migrations` row). */
  sourceVersion: string;
  /** Whether an earlier import had run into this database. */
  repeated: boolean;
  tables: ImportedTable[];
  /** Where the built-ins went, renames applied, accounts to look at: one sentence each. */
  notes: string[];
  /** Wall time of each phase: read, photos, render, write, commit, recount, index. */
  seconds: Record<string, number>;
  /** Counters recounted afterwards (rows corrected), and documents indexed; empty when the run changed nothing. */
  recounted: Record<string, number>;
  indexed: Record<string, number>;
}

/** A progress bar: `done` of `total`. */
export type ImportProgress = (label: string) => (done: number, total: number) => void;

/** A topic's or reply's Markdown, as it will be kept. */
export interface StagedBody {
  id: number;
  body: string;
}

export type PostKind = 'topics' | 'replies';

/** A homeland photo (its record; its file is `<uploads>/photo/<image>`). */
export interface StagedPhoto {
  id: number;
  userId: number | null;
  image: string;
  createdAt: Date;
}

/** A photo as stored here: its record (when its uploader is imported) and its new URL. */
export interface ImportedPhoto {
  id: number;
  userId: number | null;
  image: string;
  sha256: string;
  contentType: string;
  extension: string;
  byteSize: number;
  width: number;
  height: number;
  createdAt: Date;
}

/** One run of the import: the source's snapshot, staged into this database inside one transaction. */
export interface HomelandImportRun {
  /** homeland's schema version; throws InvalidInput for a source too old (or not homeland at all). */
  sourceVersion(): Promise<string>;
  /** Copies every table the import reads into staging, each with its bar; rows read per source table. */
  stage(progress: ImportProgress): Promise<Record<string, number>>;
  /** Whether an earlier import ran here; throws InvalidInput when none did and the database holds more than the built-ins. */
  checkTarget(): Promise<boolean>;
  /** Everything that stops the import (a login or node name we cannot keep, …), each with the source id. */
  conflicts(options: HomelandImportOptions): Promise<string[]>;
  /** Moves this service's built-ins (`system`, `NoPoint`) off homeland's ids; a sentence for each move. */
  makeRoomForBuiltIns(): Promise<string[]>;
  /** The photos not yet imported by an earlier run, and those imported, by image path with their stored files. */
  photos(): Promise<{ toImport: StagedPhoto[]; imported: ImportedPhoto[] }>;
  /** Stages the photos stored by this run; `apply` records them (by their uploaders, once these are in). */
  recordPhotos(photos: ImportedPhoto[]): Promise<void>;
  /** Staged bodies that link homeland's photos, in batches. */
  bodiesWithPhotos(kind: PostKind, batchSize: number): AsyncIterable<StagedBody[]>;
  /** Staged bodies new or changed since they were imported (their HTML is to be rendered), in batches. */
  bodiesToRender(kind: PostKind, batchSize: number): AsyncIterable<StagedBody[]>;
  countBodiesToRender(kind: PostKind): Promise<number>;
  /** Replaces staged bodies (photo links rewritten). */
  rewriteBodies(kind: PostKind, bodies: StagedBody[]): Promise<void>;
  /** Sets the rendered HTML of staged bodies. */
  setRendered(kind: PostKind, rendered: { id: number; html: string }[]): Promise<void>;
  /** Applies the staged rows to every table, set-based, and moves the sequences past the ids kept. */
  apply(input: ApplyInput, progress: ImportProgress): Promise<ImportedTable[]>;
  /** Notes on accounts an operator may want to look at (maintainers, no password, …). */
  accountNotes(options: HomelandImportOptions): Promise<string[]>;
  /** Records the run, commits, and ends the source's snapshot. */
  commit(report: HomelandImportReport): Promise<void>;
  /** Ends both without writing anything (after a failure). */
  abandon(): Promise<void>;
}

export interface ApplyInput {
  options: HomelandImportOptions;
  /** What each imported devise hash is prefixed with (accounts/devise-passwords.ts). */
  passwordPrefix: string;
  now: Date;
  /** Lifetimes given to tokens that never expired in homeland, and to refresh tokens (ours expire). */
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** Reads a file of the folder an operator named (homeland's uploads); null when there is none. */
export interface ImportFiles {
  read(folder: string, path: string): Promise<Uint8Array | null>;
}
export const ImportFiles = Symbol.for('ImportFiles');

export interface HomelandImporter {
  open(from: string): Promise<HomelandImportRun>;
}
export const HomelandImporter = Symbol.for('HomelandImporter');
