import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { NO_POINT_NODE_NAME } from '../../../domain/nodes/node.js';
import { InvalidInput } from '../../../domain/shared/errors.js';
import { SYSTEM_LOGIN } from '../../../application/actor.js';
import type {
  ApplyInput,
  HomelandImporter,
  HomelandImportOptions,
  HomelandImportReport,
  HomelandImportRun,
  ImportedPhoto,
  ImportedTable,
  ImportProgress,
  PostKind,
  StagedBody,
  StagedPhoto,
} from '../../../application/imports/ports.js';
import type { Sql } from '../database/sql.js';
import { applyStaged } from './apply.js';
import { STAGED_PHOTO_FILES, STAGED_TABLES, type SourceShape } from './staging.js';
import { settingsOf } from './settings.js';

/** Our tables the import writes. */
const IMPORTED_TABLES = [
  'users',
  'groups',
  'group_members',
  'nodes',
  'sections',
  'topics',
  'replies',
  'likes',
  'user_follows',
  'topic_follows',
  'topic_favorites',
  'user_blocks',
  'node_blocks',
  'notifications',
  'notification_unread_counts',
  'devices',
  'oauth_clients',
  'oauth_tokens',
  'uploads',
  'provider_links',
];

/** homeland's migrations the import needs: `actions` (2017) and `topics.grade` (2018). */
const OLDEST_VERSION = '20180614093642';

/** The import's reading of a homeland database and writing into ours: docs/import-homeland.md. */
export class PgHomelandImporter implements HomelandImporter {
  constructor(private readonly sql: Sql) {}

  async open(from: string): Promise<HomelandImportRun> {
    const source = new pg.Client({ connectionString: from, application_name: 'forum import (reads only)' });
    try {
      await source.connect();
    } catch (error) {
      throw new InvalidInput('from', `cannot connect to the homeland database: ${(error as Error).message}`);
    }
    source.on('error', () => undefined);
    const target = await this.sql.connect();
    try {
      // One snapshot for every table, and a promise to PostgreSQL that nothing is written there.
      await source.query('begin isolation level repeatable read read only');
      await target.query('begin');
    } catch (error) {
      await source.end().catch(() => undefined);
      target.release(error as Error);
      throw error;
    }
    return new PgHomelandImportRun(source, target);
  }
}

class PgHomelandImportRun implements HomelandImportRun {
  private shape: SourceShape = {
    confirmedAt: true,
    sections: false,
    confidential: true,
    teamUsers: true,
    authorizations: true,
  };
  private ended = false;

  constructor(
    private readonly source: pg.Client,
    private readonly target: pg.PoolClient,
  ) {}

  async sourceVersion(): Promise<string> {
    const tables = await this.source.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema()`,
    );
    const names = new Set(tables.rows.map((row) => row.table_name));
    for (const needed of ['schema_migrations', 'users', 'nodes', 'topics', 'replies', 'actions', 'notifications']) {
      if (!names.has(needed)) throw new InvalidInput('from', `this is no homeland database: it has no table ${needed}`);
    }
    const version = (await this.source.query<{ v: string }>('select max(version) as v from schema_migrations')).rows[0]!.v;
    if (version < OLDEST_VERSION) {
      throw new InvalidInput(
        'from',
        `this homeland database is at ${version}, older than ${OLDEST_VERSION}: run homeland's migrations (rails db:migrate) first`,
      );
    }
    const columns = await this.source.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
        where table_schema = current_schema() and (table_name, column_name) in
              (('users', 'confirmed_at'), ('oauth_applications', 'confidential'), ('nodes', 'section_id'))`,
    );
    const has = (table: string, column: string) =>
      columns.rows.some((row) => row.table_name === table && row.column_name === column);
    this.shape = {
      confirmedAt: has('users', 'confirmed_at'),
      sections: names.has('sections') && has('nodes', 'section_id'),
      confidential: has('oauth_applications', 'confidential'),
      teamUsers: names.has('team_users'),
      authorizations: names.has('authorizations'),
    };
    for (const table of ['devices', 'oauth_applications', 'oauth_access_tokens', 'photos', 'settings']) {
      if (!names.has(table)) throw new InvalidInput('from', `this homeland database has no table ${table}`);
    }
    return version;
  }

  async stage(progress: ImportProgress): Promise<Record<string, number>> {
    const read: Record<string, number> = {};
    for (const table of STAGED_TABLES) {
      const query = table.query(this.shape);
      await this.target.query(`create temporary table ${table.stage} (${table.columns}) on commit drop`);
      if (query === null) continue;
      const total = Number((await this.source.query<{ n: string }>(`select count(*) as n from (${query}) q`)).rows[0]!.n);
      const bar = progress(table.source);
      bar(0, total);
      let rows = 0;
      // COPY's text format escapes the newlines inside values: each newline ends a row.
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
          bar(Math.min(rows, total), total);
          done(null, chunk);
        },
      });
      await pipeline(
        this.source.query(copyTo(`copy (${query}) to stdout`)),
        counter,
        this.target.query(copyFrom(`copy ${table.stage} from stdin`)),
      );
      // Temporary tables are never analysed by autovacuum: the joins that follow need their statistics.
      await this.target.query(`analyze ${table.stage}`);
      read[table.source] = rows;
    }
    await this.target.query(STAGED_PHOTO_FILES);
    return read;
  }

  async checkTarget(): Promise<boolean> {
    const { rows } = await this.target.query<{ repeated: boolean; users: number; nodes: number; topics: number }>(
      `select exists (select 1 from import_runs where source = 'homeland') as repeated,
              (select count(*)::int from users where login <> $1) as users,
              (select count(*)::int from nodes where name <> $2) as nodes,
              (select count(*)::int from topics) as topics`,
      [SYSTEM_LOGIN, NO_POINT_NODE_NAME],
    );
    const state = rows[0]!;
    if (!state.repeated && state.users + state.nodes + state.topics > 0) {
      throw new InvalidInput(
        'from',
        `this forum's database already holds ${state.users} user(s), ${state.nodes} node(s) and ${state.topics} topic(s) ` +
          'besides its built-ins: a first import goes into a fresh database (forumctl db migrate on an empty one)',
      );
    }
    return state.repeated;
  }

  async conflicts(options: HomelandImportOptions): Promise<string[]> {
    for (const [id, login] of options.renameLogins) {
      await this.target.query('update stage_users set login = $2 where id = $1', [id, login]);
    }
    for (const [id, name] of options.renameNodes) {
      await this.target.query('update stage_nodes set name = $2 where id = $1', [id, name]);
    }
    const { rows } = await this.target.query<{ conflict: string }>(
      `with people as (select * from stage_users where type is distinct from 'Team' and state <> -1)
       select format('user %s: the login %L is not one here (2 to 20 letters, digits, "_", "." or "-"): --rename-login %s=<login>', id, login, id) as conflict
         from people where login !~ '^[A-Za-z0-9_.-]{2,20}$'
       union all
       select format('users %s: the login %L is taken, but for case: --rename-login <id>=<login>', string_agg(id::text, ', ' order by id), min(login))
         from people group by lower(login) having count(*) > 1
       union all
       select format('user %s: the login %L is taken here (by user %s): --rename-login %s=<login>', p.id, p.login, u.id, p.id)
         from people p join users u on lower(u.login) = lower(p.login) and u.id <> p.id
       union all
       select format('users %s: the e-mail address %L is used twice, but for case', string_agg(id::text, ', ' order by id), min(email))
         from people group by lower(email) having count(*) > 1
       union all
       select format('user %s: the e-mail address %L is taken here (by user %s)', p.id, p.email, u.id)
         from people p join users u on lower(u.email) = lower(p.email) and u.id <> p.id
       union all
       select format('node %s: the name %L is longer than 100 characters: --rename-node %s=<name>', id, name, id)
         from stage_nodes where length(name) > 100
       union all
       select format('nodes %s: the name %L is taken, but for case: --rename-node <id>=<name>', string_agg(id::text, ', ' order by id), min(name))
         from stage_nodes group by lower(name) having count(*) > 1
       union all
       select format('node %s: the name %L is taken here (by node %s): --rename-node %s=<name>', s.id, s.name, n.id, s.id)
         from stage_nodes s join nodes n on lower(n.name) = lower(s.name) and n.id <> s.id and lower(s.name) <> lower($1)`,
      [NO_POINT_NODE_NAME],
    );
    return rows.map((row) => row.conflict);
  }

  async makeRoomForBuiltIns(): Promise<string[]> {
    const notes: string[] = [];
    const system = (await this.target.query<{ id: number }>('select id from users where login = $1', [SYSTEM_LOGIN])).rows[0];
    if (system && (await this.staged('stage_users', system.id))) {
      const to = await this.above('users', 'stage_users');
      await this.move('users', system.id, to, { login: SYSTEM_LOGIN });
      notes.push(
        `the built-in user "${SYSTEM_LOGIN}" moved from id ${system.id} to id ${to}, making room for homeland's user ${system.id}`,
      );
    }
    const noPoint = (
      await this.target.query<{ id: number }>('select id from nodes where lower(name) = lower($1)', [NO_POINT_NODE_NAME])
    ).rows[0];
    const theirs = (
      await this.target.query<{ id: number }>('select id from stage_nodes where lower(name) = lower($1) order by id limit 1', [
        NO_POINT_NODE_NAME,
      ])
    ).rows[0];
    if (noPoint && theirs && theirs.id !== noPoint.id) {
      await this.move('nodes', noPoint.id, theirs.id, { name: NO_POINT_NODE_NAME });
      notes.push(
        `homeland's node ${theirs.id} "${NO_POINT_NODE_NAME}" is this forum's NoPoint (where bans move topics) from now on`,
      );
    } else if (noPoint && !theirs && (await this.staged('stage_nodes', noPoint.id))) {
      const to = await this.above('nodes', 'stage_nodes');
      await this.move('nodes', noPoint.id, to, { name: NO_POINT_NODE_NAME });
      notes.push(
        `the built-in node "${NO_POINT_NODE_NAME}" moved from id ${noPoint.id} to id ${to}, making room for homeland's node ${noPoint.id}`,
      );
    }
    return notes;
  }

  async photos(): Promise<{ toImport: StagedPhoto[]; imported: ImportedPhoto[] }> {
    const toImport = await this.target.query<StagedPhoto>(
      `select s.id, s.user_id as "userId", s.image, coalesce(s.created_at, now()) as "createdAt"
         from stage_photos s where not exists (select 1 from uploads u where u.id = s.id) order by s.id`,
    );
    const imported = await this.target.query<ImportedPhoto>(
      `select s.id, u.user_id as "userId", s.image, u.sha256, u.content_type as "contentType", u.extension,
              u.byte_size as "byteSize", u.width, u.height, u.created_at as "createdAt"
         from stage_photos s join uploads u on u.id = s.id order by s.id`,
    );
    return { toImport: toImport.rows, imported: imported.rows };
  }

  async recordPhotos(photos: ImportedPhoto[]): Promise<void> {
    if (photos.length === 0) return;
    const column = <K extends keyof ImportedPhoto>(key: K) => photos.map((photo) => photo[key]);
    await this.target.query(
      `insert into stage_photo_files (id, user_id, image, sha256, content_type, extension, byte_size, width, height, created_at)
       select * from unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[],
                            $9::int[], $10::timestamptz[])`,
      [
        column('id'),
        column('userId'),
        column('image'),
        column('sha256'),
        column('contentType'),
        column('extension'),
        column('byteSize'),
        column('width'),
        column('height'),
        column('createdAt'),
      ],
    );
  }

  bodiesWithPhotos(kind: PostKind, batchSize: number): AsyncIterable<StagedBody[]> {
    return this.batches(
      `select id, body from stage_${kind} where body like '%/photo/%' and id > $1 order by id limit $2`,
      batchSize,
    );
  }

  bodiesToRender(kind: PostKind, batchSize: number): AsyncIterable<StagedBody[]> {
    return this.batches(
      `select id, body from stage_${kind} s where ${needsRendering(kind)} and id > $1 order by id limit $2`,
      batchSize,
    );
  }

  async countBodiesToRender(kind: PostKind): Promise<number> {
    const { rows } = await this.target.query<{ n: number }>(
      `select count(*)::int as n from stage_${kind} s where ${needsRendering(kind)}`,
    );
    return rows[0]!.n;
  }

  async rewriteBodies(kind: PostKind, bodies: StagedBody[]): Promise<void> {
    await this.target.query(
      `update stage_${kind} s set body = u.body from unnest($1::int[], $2::text[]) u (id, body) where s.id = u.id`,
      [bodies.map((post) => post.id), bodies.map((post) => post.body)],
    );
  }

  async setRendered(kind: PostKind, rendered: { id: number; html: string }[]): Promise<void> {
    await this.target.query(
      `update stage_${kind} s set body_html = u.html from unnest($1::int[], $2::text[]) u (id, html) where s.id = u.id`,
      [rendered.map((post) => post.id), rendered.map((post) => post.html)],
    );
  }

  async apply(input: ApplyInput, progress: ImportProgress): Promise<ImportedTable[]> {
    const settings = await settingsOf(this.target);
    return applyStaged(this.target, input, settings, progress);
  }

  async accountNotes(options: HomelandImportOptions): Promise<string[]> {
    const { rows } = await this.target.query<{ note: string }>(
      `select format('%s maintainer(s) (homeland''s moderators) are members here: %s', count(*),
                     string_agg(login, ', ' order by id)) as note
         from stage_users where state = 90 having count(*) > 0
       union all
       select format('%s account(s) have no password and no link to a provider (GitHub sign-ups whose binding is gone): they sign in after "forgot password" (forumctl users reset-link)', count(*))
         from stage_users s
        where s.type is distinct from 'Team' and s.state <> -1 and s.encrypted_password !~ '^\\$2[aby]\\$'
          and not exists (select 1 from provider_links l where l.user_id = s.id)
       having count(*) > 0
       union all
       select format('%s account(s) are linked to the provider %s, which is not configured here: they sign in with it once it is (forumctl auth providers add %s …, with homeland''s OAuth app; its callback URL is <PUBLIC_URL>/account/auth/%s/callback)',
                     count(distinct l.user_id), l.provider, l.provider, l.provider)
         from provider_links l
        where not exists (select 1 from sign_in_providers p where p.name = l.provider)
        group by l.provider
       union all
       select 'an account has the address admin@admin.com, homeland''s default administrator address: give --admin-emails admin@admin.com if it administered the site'
         from stage_users where lower(email) = 'admin@admin.com' and state <> 99 and not (lower(email) = any($1::text[]))`,
      [options.adminEmails.map((email) => email.toLowerCase())],
    );
    return rows.map((row) => row.note);
  }

  async commit(report: HomelandImportReport): Promise<void> {
    await this.target.query(`insert into import_runs (source, report) values ('homeland', $1)`, [JSON.stringify(report)]);
    await this.target.query('commit');
    try {
      // Statistics for what just arrived, before anything reads it (the recount that follows, the service): the
      // tables grew from nothing in one transaction, and autovacuum would take its time to notice.
      await this.target.query(`analyze ${IMPORTED_TABLES.join(', ')}`);
    } finally {
      await this.end();
    }
  }

  async abandon(): Promise<void> {
    await this.target.query('rollback').catch(() => undefined);
    await this.end();
  }

  private async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.target.release();
    await this.source.query('rollback').catch(() => undefined);
    await this.source.end().catch(() => undefined);
  }

  private async *batches(text: string, batchSize: number): AsyncIterable<StagedBody[]> {
    for (let after = 0; ;) {
      const { rows } = await this.target.query<StagedBody>(text, [after, batchSize]);
      if (rows.length === 0) return;
      yield rows;
      after = rows.at(-1)!.id;
    }
  }

  private async staged(stage: string, id: number): Promise<boolean> {
    return (await this.target.query(`select 1 from ${stage} where id = $1`, [id])).rowCount === 1;
  }

  /** An id above every id of the table, here and in the source (teams' included, which keep theirs unused). */
  private async above(table: 'users' | 'nodes', stage: string): Promise<number> {
    const { rows } = await this.target.query<{ id: number }>(
      `select greatest((select max(id) from ${table}), (select max(id) from ${stage}), 0) + 1 as id`,
    );
    return rows[0]!.id;
  }

  /**
   * Moves a row to another id: a copy under the new id (its unique columns held by placeholders meanwhile), every
   * foreign key that names it repointed (read from the catalog, so a later migration's are covered), the old row
   * deleted, the unique columns given back. The audit log is append-only: a run that would have to rewrite it stops.
   */
  private async move(table: 'users' | 'nodes', from: number, to: number, unique: Record<string, string>): Promise<void> {
    const placeholders = Object.fromEntries(Object.keys(unique).map((column) => [column, `moving-${from}-${to}`]));
    if (table === 'users') placeholders.email = `moving-${from}-${to}@forum.invalid`;
    const { rows: kept } = await this.target.query<Record<string, string>>(`select * from ${table} where id = $1`, [from]);
    await this.target.query(
      `insert into ${table} select (jsonb_populate_record(null::${table}, to_jsonb(t) || $2::jsonb)).* from ${table} t where id = $1`,
      [from, JSON.stringify({ ...placeholders, id: to })],
    );
    const { rows: references } = await this.target.query<{ table_name: string; column_name: string }>(
      `select c.conrelid::regclass::text as table_name, a.attname as column_name
         from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.confrelid = $1::regclass`,
      [table],
    );
    for (const reference of references) {
      const names = `${pg.escapeIdentifier(reference.table_name)} set ${pg.escapeIdentifier(reference.column_name)}`;
      try {
        await this.target.query(`update ${names} = $2 where ${pg.escapeIdentifier(reference.column_name)} = $1`, [from, to]);
      } catch (error) {
        throw new InvalidInput(
          'from',
          `the built-in ${table === 'users' ? 'user' : 'node'} ${from} must make room for homeland's, but ${reference.table_name} ` +
            `names it and cannot be changed (${(error as Error).message})`,
        );
      }
    }
    await this.target.query(`delete from ${table} where id = $1`, [from]);
    const restore = Object.keys(unique).concat(table === 'users' ? ['email'] : []);
    await this.target.query(
      `update ${table} set ${restore.map((column, i) => `${column} = $${i + 2}`).join(', ')} where id = $1`,
      [to, ...restore.map((column) => kept[0]![column])],
    );
  }
}

/** A staged post is rendered when it is new here or its Markdown changed (mention events are never imported). */
function needsRendering(kind: PostKind): string {
  const imported = `not exists (select 1 from ${kind} t where t.id = s.id and t.body = s.body)`;
  return kind === 'replies' ? `${imported} and s.action is distinct from 'mention'` : imported;
}
