import { expect } from 'chai';
import pg from 'pg';
import { testEnv } from '../support/env.js';
import {
  createHomelandDatabase,
  HOMELAND_COMMIT,
  homelandSchemaSql,
  type HomelandDatabase,
  readHomelandSchemaRb,
} from '../support/homeland/schema.js';

/** What a column is in the database: its type as format_type prints it, whether it may be null, its default. */
interface ColumnRow {
  table: string;
  column: string;
  type: string;
  not_null: boolean;
  default: string | null;
}

describe('A database with homeland’s schema (test/support/homeland, issue 36)', () => {
  const schemaRb = readHomelandSchemaRb();

  describe('homelandSchemaSql', () => {
    it('is schema.rb as committed, copied at the commit it names', () => {
      expect(schemaRb).to.include(HOMELAND_COMMIT);
      expect(schemaRb).to.include('ActiveRecord::Schema[8.0].define(version: 2025_06_30_092055) do');
    });

    it('translates columns, defaults, primary keys and indexes as Rails creates them on PostgreSQL', () => {
      const sql = homelandSchemaSql(`
        ActiveRecord::Schema[7.1].define(version: 2024_01_02_030405) do
          enable_extension "pgcrypto"
          create_table "things", id: false, force: :cascade do |t|
            t.string "code", limit: 8, null: false, default: "it's"
            t.datetime "seen_at", default: -> { "now()" }
            t.datetime "legacy_at", precision: nil
            t.decimal "price", precision: 10, scale: 2, default: "0.0"
            t.float "ratio"
            t.integer "ids", default: [], array: true
            t.jsonb "data", default: {}, null: false
            t.boolean "on", default: true
            t.index ["code"], name: "index_things_on_code", unique: true, where: "(code IS NOT NULL)"
          end
          create_table "others", force: :cascade do |t|
            t.date "day"
          end
        end`);
      expect(sql).to.include('create extension if not exists "pgcrypto";');
      expect(sql).to.include(`create table "things" (
  "code" character varying(8) not null default 'it''s',
  "seen_at" timestamp(6) without time zone default now(),
  "legacy_at" timestamp without time zone,
  "price" numeric(10,2) default '0.0',
  "ratio" double precision,
  "ids" integer[] default '{}',
  "data" jsonb not null default '{}',
  "on" boolean default true
);`);
      expect(sql).to.include('create unique index "index_things_on_code" on "things" ("code") where (code IS NOT NULL);');
      expect(sql).to.include(`create table "others" (\n  "id" bigserial primary key,\n  "day" date\n);`);
      expect(sql).to.include(`insert into "schema_migrations" ("version") values ('20240102030405')`);
    });

    it('refuses what it does not know rather than leave it out', () => {
      const wrapped = (body: string) => `ActiveRecord::Schema[8.0].define(version: 1) do\n${body}\nend`;
      expect(() => homelandSchemaSql(wrapped('create_table "a", force: :cascade do |t|\n t.money "price"\nend'))).to.throw(
        /line 3: a column type this translator does not know: t.money/,
      );
      expect(() =>
        homelandSchemaSql(wrapped('create_table "a", force: :cascade do |t|\n t.string "b", collation: "C"\nend')),
      ).to.throw(/options this translator does not know: collation/);
      expect(() => homelandSchemaSql(wrapped('add_foreign_key "a", "b"'))).to.throw(/not something this translator knows/);
    });
  });

  describe('createHomelandDatabase', () => {
    let homeland: HomelandDatabase;
    let client: pg.Client;
    let columns: ColumnRow[];

    before(async function () {
      this.timeout(60_000);
      // On the server the test database lives on (TEST_DATABASE_URL's, or the embedded one), in a database of its own.
      const serverUrl = testEnv().config.databaseUrl;
      if (!serverUrl) throw new Error('the test environment has no database URL');
      homeland = await createHomelandDatabase(serverUrl);
      client = new pg.Client({ connectionString: homeland.url });
      await client.connect();
      const result = await client.query<ColumnRow>(`
        select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
               a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'public'
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
        where c.relkind = 'r'
        order by c.relname, a.attnum`);
      columns = result.rows;
    });

    after(async function () {
      this.timeout(60_000);
      await client?.end();
      await homeland?.drop();
    });

    const column = (table: string, name: string) => {
      const found = columns.find((row) => row.table === table && row.column === name);
      if (!found) expect.fail(`no column ${table}.${name}`);
      return { type: found.type, notNull: found.not_null, default: found.default };
    };

    it('has every create_table of schema.rb as a table, with exactly its columns, and Rails’ own two tables', () => {
      // Read from schema.rb here with nothing but regular expressions: not through the translator under test.
      const expected = new Map<string, string[]>();
      for (const block of schemaRb.matchAll(/create_table "(\w+)"([^\n]*) do \|t\|\n([\s\S]*?)\n  end\n/g)) {
        const names = [...block[3]!.matchAll(/^\s*t\.(?!index\b)\w+ "(\w+)"/gm)].map((match) => match[1]!);
        expected.set(block[1]!, block[2]!.includes('id: false') ? names : ['id', ...names]);
      }
      expect(expected.size).to.equal((schemaRb.match(/^\s*create_table /gm) ?? []).length);
      expect(expected.size).to.equal(23);

      const actual = new Map<string, string[]>();
      for (const row of columns) actual.set(row.table, [...(actual.get(row.table) ?? []), row.column]);
      expect([...actual.keys()].sort()).to.deep.equal([...expected.keys(), 'ar_internal_metadata', 'schema_migrations'].sort());
      for (const [table, names] of expected) expect(actual.get(table), table).to.deep.equal(names);
    });

    it('types the columns as Rails maps them on PostgreSQL, with their defaults', () => {
      expect(column('users', 'encrypted_password')).to.deep.equal({
        type: 'character varying',
        notNull: true,
        default: "''::character varying",
      });
      expect(column('users', 'login')).to.deep.equal({ type: 'character varying(100)', notNull: true, default: null });
      expect(column('users', 'state')).to.deep.equal({ type: 'integer', notNull: true, default: '1' });
      expect(column('users', 'email_public')).to.deep.equal({ type: 'boolean', notNull: true, default: 'false' });
      // Columns older than Rails 7 dump `precision: nil`; those after it have the new default precision, 6.
      expect(column('users', 'created_at').type).to.equal('timestamp without time zone');
      expect(column('users', 'confirmed_at').type).to.equal('timestamp(6) without time zone');
      expect(column('counters', 'created_at')).to.deep.equal({
        type: 'timestamp(6) without time zone',
        notNull: true,
        default: null,
      });
      expect(column('topics', 'deleted_at')).to.deep.equal({
        type: 'timestamp without time zone',
        notNull: false,
        default: null,
      });
      expect(column('topics', 'grade')).to.deep.equal({ type: 'integer', notNull: false, default: '0' });
      expect(column('topics', 'mentioned_user_ids')).to.deep.equal({
        type: 'integer[]',
        notNull: false,
        default: "'{}'::integer[]",
      });
      expect(column('replies', 'action')).to.deep.equal({ type: 'character varying', notNull: false, default: null });
      expect(column('replies', 'target_id').type).to.equal('character varying');
      expect(column('oauth_access_tokens', 'token')).to.deep.equal({ type: 'character varying', notNull: true, default: null });
      expect(column('oauth_access_tokens', 'expires_in').type).to.equal('bigint');
      expect(column('oauth_applications', 'confidential')).to.deep.equal({ type: 'boolean', notNull: true, default: 'true' });
      expect(column('oauth_applications', 'scopes').default).to.equal("''::character varying");
      expect(column('authorizations', 'uid').type).to.equal('character varying(1000)');
      expect(column('profiles', 'contacts')).to.deep.equal({ type: 'jsonb', notNull: true, default: "'{}'::jsonb" });
      expect(column('search_documents', 'tokens').type).to.equal('tsvector');
      expect(column('search_documents', 'searchable_type').type).to.equal('character varying(32)');
      // id: :serial is an integer with its sequence; no id: is Rails' bigserial.
      expect(column('actions', 'id')).to.deep.equal({
        type: 'integer',
        notNull: true,
        default: "nextval('actions_id_seq'::regclass)",
      });
      expect(column('counters', 'id')).to.deep.equal({
        type: 'bigint',
        notNull: true,
        default: "nextval('counters_id_seq'::regclass)",
      });
    });

    it('has homeland’s indexes, unique ones and the expression and GIN ones included', async () => {
      const { rows } = await client.query<{ indexname: string; indexdef: string }>(
        "select indexname, indexdef from pg_indexes where schemaname = 'public'",
      );
      const definition = (name: string) => rows.find((row) => row.indexname === name)?.indexdef;
      expect(rows.filter((row) => row.indexname.startsWith('index_'))).to.have.length(
        (schemaRb.match(/^\s*t\.index /gm) ?? []).length,
      );
      expect(definition('index_oauth_access_tokens_on_token')).to.match(/^CREATE UNIQUE INDEX .* USING btree \(token\)$/);
      expect(definition('index_users_on_lower_login_varchar_pattern_ops')).to.include(
        'USING btree (lower((login)::text) varchar_pattern_ops)',
      );
      expect(definition('index_search_documents_on_tokens')).to.include('USING gin (tokens)');
    });

    it('records the schema’s version as Rails does', async () => {
      const { rows } = await client.query('select version from schema_migrations');
      expect(rows).to.deep.equal([{ version: '20250630092055' }]);
    });
  });
});
