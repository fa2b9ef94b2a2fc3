import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * A database with homeland's real schema (issue 36), for tests of `forumctl import homeland`: homeland's own
 * `db/schema.rb` (test/support/homeland/schema.rb, copied verbatim at HOMELAND_COMMIT) translated to PostgreSQL DDL
 * the way Rails' PostgreSQL adapter would create it on `rails db:schema:load`.
 *
 * The translator handles what that schema.rb says, and refuses anything else with the line it could not read, so
 * that a newer schema.rb never silently yields a different database:
 * - `ActiveRecord::Schema[x.y].define(version: …)`, `enable_extension "…"`;
 * - `create_table "name", id: :serial | :bigserial | false, force: :cascade do |t| … end` (no `id:`: bigserial);
 * - columns `t.string text integer bigint boolean datetime date jsonb json float decimal tsvector "name", …` with
 *   `limit:`, `precision:`, `scale:`, `null: false`, `array: true` and `default:` (a string, number, boolean, `[]`,
 *   `{}`, or `-> { "sql" }`);
 * - `t.index ["a", "b"] | "expression", name:, unique: true, where: "…", using: :gin`.
 * A `datetime` without `precision:` is `timestamp(6)` from Rails 7 on (what `Schema[7.0]` and later mean) and plain
 * `timestamp` before; `precision: nil` is plain `timestamp` (columns made before Rails 7 keep that in the dump).
 */

/** The homeland commit schema.rb was copied from. */
export const HOMELAND_COMMIT = '9f5dbde5b7ce92b72bfdfb14622a784a2805e412';

export interface HomelandColumn {
  name: string;
  /** The PostgreSQL type, as `format_type` prints it (`character varying(100)`, `timestamp(6) without time zone`). */
  sqlType: string;
  notNull: boolean;
  /** The default as SQL, or null. */
  defaultSql: string | null;
}

export interface HomelandIndex {
  name: string;
  /** Quoted column names, or the expression as written. */
  columns: string;
  unique: boolean;
  using: string | null;
  where: string | null;
}

export interface HomelandTable {
  name: string;
  /** `serial`, `bigserial`, or null for `id: false`. */
  id: 'serial' | 'bigserial' | null;
  columns: HomelandColumn[];
  indexes: HomelandIndex[];
}

export interface HomelandSchema {
  /** Rails' version of the schema format (`Schema[8.0]`: 8), null for `ActiveRecord::Schema.define`. */
  railsMajor: number | null;
  /** The `define(version: …)`, as schema_migrations holds it: `20250630092055`. */
  version: string;
  extensions: string[];
  tables: HomelandTable[];
}

/** The PostgreSQL DDL that builds homeland's schema in an empty database (Rails' own two tables included). */
export function homelandSchemaSql(schemaRb: string): string {
  const schema = parseHomelandSchema(schemaRb);
  const statements: string[] = [`-- homeland's db/schema.rb, version ${schema.version}`];
  for (const extension of schema.extensions) statements.push(`create extension if not exists ${ident(extension)};`);
  for (const table of schema.tables) {
    const lines = table.id ? [`${ident('id')} ${table.id} primary key`] : [];
    for (const column of table.columns) {
      const nullity = column.notNull ? ' not null' : '';
      const defaulted = column.defaultSql === null ? '' : ` default ${column.defaultSql}`;
      lines.push(`${ident(column.name)} ${column.sqlType}${nullity}${defaulted}`);
    }
    // force: :cascade, as Rails does it.
    statements.push(`drop table if exists ${ident(table.name)} cascade;`);
    statements.push(`create table ${ident(table.name)} (\n  ${lines.join(',\n  ')}\n);`);
    for (const index of table.indexes) {
      const using = index.using ? ` using ${index.using}` : '';
      const where = index.where ? ` where ${index.where}` : '';
      statements.push(
        `create${index.unique ? ' unique' : ''} index ${ident(index.name)} on ${ident(table.name)}${using} (${index.columns})${where};`,
      );
    }
  }
  // What `rails db:schema:load` adds besides: its bookkeeping tables, the schema's version (Rails also records the
  // version of every file under db/migrate; nothing here reads them) and the environment.
  statements.push(
    `create table if not exists "schema_migrations" ("version" character varying not null primary key);`,
    `create table if not exists "ar_internal_metadata" ("key" character varying not null primary key, "value" character varying,
  "created_at" timestamp(6) without time zone not null, "updated_at" timestamp(6) without time zone not null);`,
    `insert into "schema_migrations" ("version") values (${literal(schema.version)}) on conflict do nothing;`,
    `insert into "ar_internal_metadata" ("key", "value", "created_at", "updated_at") values ('environment', 'production', now(), now())
  on conflict do nothing;`,
  );
  return statements.join('\n') + '\n';
}

/** schema.rb as data: its tables, their columns as PostgreSQL sees them, their indexes. */
export function parseHomelandSchema(schemaRb: string): HomelandSchema {
  const schema: HomelandSchema = { railsMajor: null, version: '', extensions: [], tables: [] };
  let table: HomelandTable | null = null;
  let defined = false;
  schemaRb.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    const where = `schema.rb line ${index + 1}`;
    if (line === '' || line.startsWith('#')) return;
    let match: RegExpMatchArray | null;
    if ((match = line.match(/^ActiveRecord::Schema(?:\[(\d+)\.\d+\])?\.define\((.*)\) do$/))) {
      schema.railsMajor = match[1] ? Number(match[1]) : null;
      schema.version = String(options(parseArguments(match[2]!, where), ['version'], where).version ?? '').replace(/_/g, '');
      defined = true;
    } else if (!defined) {
      throw new Error(`${where}: expected ActiveRecord::Schema…define before ${JSON.stringify(line)}`);
    } else if ((match = line.match(/^enable_extension (.*)$/))) {
      schema.extensions.push(stringArgument(parseArguments(match[1]!, where), where));
    } else if ((match = line.match(/^create_table (.*) do \|t\|$/)) && !table) {
      const args = parseArguments(match[1]!, where);
      const given = options(args, ['id', 'force'], where);
      table = { name: stringArgument(args, where), id: primaryKey(given, schema.railsMajor, where), columns: [], indexes: [] };
    } else if ((match = line.match(/^t\.index (.*)$/)) && table) {
      table.indexes.push(indexOf(table.name, parseArguments(match[1]!, where), where));
    } else if ((match = line.match(/^t\.(\w+) (.*)$/)) && table) {
      table.columns.push(columnOf(match[1]!, parseArguments(match[2]!, where), schema.railsMajor, where));
    } else if (line === 'end' && table) {
      schema.tables.push(table);
      table = null;
    } else if (line === 'end') {
      defined = false;
    } else {
      throw new Error(`${where}: not something this translator knows: ${JSON.stringify(line)}`);
    }
  });
  if (table || defined || schema.version === '') throw new Error('schema.rb ends before its define block does');
  return schema;
}

function primaryKey(given: Record<string, RubyValue>, railsMajor: number | null, where: string): HomelandTable['id'] {
  if (!('id' in given)) return railsMajor === null ? 'serial' : 'bigserial';
  if (given.id === false) return null;
  if (given.id instanceof RubySymbol && (given.id.name === 'serial' || given.id.name === 'bigserial')) {
    return given.id.name as 'serial' | 'bigserial';
  }
  throw new Error(`${where}: a primary key this translator does not know: id: ${String(given.id)}`);
}

function columnOf(type: string, args: Arguments, railsMajor: number | null, where: string): HomelandColumn {
  const given = options(args, ['null', 'default', 'limit', 'precision', 'scale', 'array'], where);
  const limit = given.limit === undefined ? null : Number(given.limit);
  let sqlType: string;
  switch (type) {
    case 'string':
      sqlType = limit === null ? 'character varying' : `character varying(${limit})`;
      break;
    case 'integer':
      sqlType = limit === 8 ? 'bigint' : limit === 2 ? 'smallint' : 'integer';
      break;
    case 'datetime': {
      // Rails 7 made precision 6 the default; an explicit `precision: nil` is what older columns dump as.
      const precision = 'precision' in given ? given.precision : railsMajor !== null && railsMajor >= 7 ? 6 : null;
      sqlType = precision === null ? 'timestamp without time zone' : `timestamp(${Number(precision)}) without time zone`;
      break;
    }
    case 'float':
      sqlType = 'double precision';
      break;
    case 'decimal':
      sqlType =
        given.precision === undefined
          ? 'numeric'
          : `numeric(${Number(given.precision)}${given.scale === undefined ? '' : `,${Number(given.scale)}`})`;
      break;
    case 'text':
    case 'bigint':
    case 'boolean':
    case 'date':
    case 'jsonb':
    case 'json':
    case 'tsvector':
      sqlType = type;
      break;
    default:
      throw new Error(`${where}: a column type this translator does not know: t.${type}`);
  }
  if (given.array === true) sqlType += '[]';
  return {
    name: stringArgument(args, where),
    sqlType,
    notNull: given.null === false,
    defaultSql: given.default === undefined || given.default === null ? null : defaultSql(given.default, where),
  };
}

function defaultSql(value: RubyValue, where: string): string {
  if (value instanceof SqlExpression) return value.sql;
  if (typeof value === 'string') return literal(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return literal(`{${value.map((item) => JSON.stringify(item)).join(',')}}`);
  if (value && typeof value === 'object' && !(value instanceof RubySymbol)) return literal(JSON.stringify(value));
  throw new Error(`${where}: a default this translator does not know: ${String(value)}`);
}

function indexOf(table: string, args: Arguments, where: string): HomelandIndex {
  const given = options(args, ['name', 'unique', 'where', 'using'], where);
  const target = args.positional[0];
  let columns: string;
  if (Array.isArray(target) && target.every((item) => typeof item === 'string')) columns = target.map(ident).join(', ');
  else if (typeof target === 'string') columns = target;
  else throw new Error(`${where}: an index on something this translator does not know`);
  const names = Array.isArray(target) ? (target as string[]).join('_and_') : 'expression';
  return {
    name: typeof given.name === 'string' ? given.name : `index_${table}_on_${names}`,
    columns,
    unique: given.unique === true,
    using: given.using instanceof RubySymbol ? given.using.name : null,
    where: typeof given.where === 'string' ? given.where : null,
  };
}

/** The few Ruby values schema.rb writes: strings, numbers, booleans, nil, symbols, arrays, hashes, `-> { "sql" }`. */
type RubyValue = string | number | boolean | null | RubySymbol | SqlExpression | RubyValue[] | { [key: string]: RubyValue };

class RubySymbol {
  constructor(readonly name: string) {}
  toString(): string {
    return `:${this.name}`;
  }
}

class SqlExpression {
  constructor(readonly sql: string) {}
  toString(): string {
    return `-> { ${JSON.stringify(this.sql)} }`;
  }
}

interface Arguments {
  positional: RubyValue[];
  keywords: Record<string, RubyValue>;
}

/** The keyword arguments, refusing any this translator would otherwise ignore. */
function options(args: Arguments, known: string[], where: string): Record<string, RubyValue> {
  const unknown = Object.keys(args.keywords).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new Error(`${where}: options this translator does not know: ${unknown.join(', ')}`);
  return args.keywords;
}

function stringArgument(args: Arguments, where: string): string {
  const first = args.positional[0];
  if (typeof first !== 'string') throw new Error(`${where}: expected a name in quotes first`);
  return first;
}

/** A Ruby argument list: `"name", limit: 100, null: false`. */
function parseArguments(text: string, where: string): Arguments {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${where}: ${what} at column ${at + 1} of ${JSON.stringify(text)}`);
  };
  const skipSpace = () => {
    while (/\s/.test(text[at] ?? '')) at++;
  };
  const expect = (token: string) => {
    skipSpace();
    if (!text.startsWith(token, at)) fail(`expected ${token}`);
    at += token.length;
  };
  const list = <T>(close: string, item: () => T): T[] => {
    const items: T[] = [];
    skipSpace();
    while (text[at] !== close) {
      items.push(item());
      skipSpace();
      if (text[at] === ',') at++;
      else if (text[at] !== close) fail(`expected , or ${close}`);
      skipSpace();
    }
    at++;
    return items;
  };
  const key = (): string | null => {
    const match = /^([A-Za-z_]\w*):(?!:)/.exec(text.slice(at));
    if (!match) return null;
    at += match[0].length;
    return match[1]!;
  };
  const value = (): RubyValue => {
    skipSpace();
    const rest = text.slice(at);
    let match: RegExpExecArray | null;
    if (rest.startsWith('"')) {
      const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest) ?? fail('an unterminated string');
      if (quoted[1]!.includes('#{')) fail('string interpolation');
      at += quoted[0].length;
      return JSON.parse(`"${quoted[1]!.replace(/\\'/g, "'")}"`) as string;
    }
    if (rest.startsWith("'")) {
      const quoted = /^'((?:[^'\\]|\\.)*)'/.exec(rest) ?? fail('an unterminated string');
      at += quoted[0].length;
      return quoted[1]!.replace(/\\(['\\])/g, '$1');
    }
    if (rest.startsWith('->')) {
      at += 2;
      expect('{');
      const sql = value();
      if (typeof sql !== 'string') fail('a lambda that is not a string of SQL');
      expect('}');
      return new SqlExpression(sql as string);
    }
    if (rest.startsWith('[')) {
      at++;
      return list(']', value);
    }
    if (rest.startsWith('{')) {
      at++;
      return Object.fromEntries(
        list('}', () => {
          skipSpace();
          const name = key() ?? fail('a hash key that is not a plain word');
          return [name, value()];
        }),
      );
    }
    if ((match = /^:([A-Za-z_]\w*)/.exec(rest))) {
      at += match[0].length;
      return new RubySymbol(match[1]!);
    }
    if ((match = /^-?\d[\d_]*(\.\d+)?/.exec(rest))) {
      at += match[0].length;
      // 2025_06_30_092055 is a number to Ruby; kept exact as a string where it would lose digits.
      const digits = match[0].replace(/_/g, '');
      return Number.isSafeInteger(Number(digits)) || match[1] ? Number(digits) : digits;
    }
    if ((match = /^(true|false|nil)\b/.exec(rest))) {
      at += match[0].length;
      return match[1] === 'nil' ? null : match[1] === 'true';
    }
    return fail('a value this translator does not know');
  };
  const args: Arguments = { positional: [], keywords: {} };
  skipSpace();
  while (at < text.length) {
    const name = key();
    if (name !== null) args.keywords[name] = value();
    else if (Object.keys(args.keywords).length > 0) fail('a positional argument after keywords');
    else args.positional.push(value());
    skipSpace();
    if (at < text.length) expect(',');
    skipSpace();
  }
  return args;
}

function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** The repository's root: the nearest folder up with a package.json (this runs from dist/test/… and from test/…). */
function repositoryRoot(): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('no package.json above test/support/homeland');
    folder = parent;
  }
  return folder;
}

/** schema.rb as committed (read from the source tree: the build does not copy it into dist/). */
export function readHomelandSchemaRb(): string {
  return readFileSync(path.join(repositoryRoot(), 'test', 'support', 'homeland', 'schema.rb'), 'utf8');
}

/** Builds homeland's schema in the (empty) database at `databaseUrl`, in one transaction. */
export async function loadHomelandSchema(databaseUrl: string, schemaRb: string = readHomelandSchemaRb()): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`begin;\n${homelandSchemaSql(schemaRb)}commit;`);
  } finally {
    await client.end();
  }
}

export interface HomelandDatabase {
  /** The new database's URL. */
  url: string;
  /** Drops it (connections still open to it are ended). */
  drop(): Promise<void>;
}

/**
 * A fresh database with homeland's schema, on the PostgreSQL server that `serverUrl` points to (any database of it:
 * the test database's own URL will do), named `homeland_test_<pid>_<random>`. The caller drops it.
 */
export async function createHomelandDatabase(serverUrl: string): Promise<HomelandDatabase> {
  const name = `homeland_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onServer(`create database ${ident(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database: HomelandDatabase = {
    url: url.toString(),
    drop: () => onServer(`drop database if exists ${ident(name)} with (force)`),
  };
  try {
    await loadHomelandSchema(database.url);
  } catch (error) {
    await database.drop();
    throw error;
  }
  return database;
}
