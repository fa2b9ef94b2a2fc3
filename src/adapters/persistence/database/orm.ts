import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';
import { applyDerivedDefinitions, forgetDerivedDefinitions } from './derived-definitions.js';
import { Sql } from './sql.js';
import { PgEventFeed } from '../events/event-feed.js';
import { MIGRATIONS, migrationClasses } from '../migrations/list.js';

export { MIGRATIONS } from '../migrations/list.js';
import { SCHEMAS } from './schemas.js';
import { TIMESTAMPS_AS_TEXT } from './timestamps.js';

/**
 * No request waits longer than this for a connection: when the database is down or every connection is busy,
 * it fails fast (and answers 503) instead of hanging.
 */
export const CONNECT_TIMEOUT_MS = 3_000;

/** How the pools connect; a server sets all three, forumctl and migrations leave statements unbounded. */
export interface PoolOptions {
  poolMax?: number;
  /** A statement running longer is cancelled by PostgreSQL (0 or absent: no limit). */
  statementTimeoutMs?: number;
  /** How long a query may wait for a connection, or a connection take to open. */
  connectTimeoutMs?: number;
}

export async function createOrm(
  clientUrl: string,
  options: PoolOptions & { debug?: boolean; migrator?: boolean } = {},
): Promise<MikroORM> {
  const connectTimeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  // The migrator (and umzug, and its command line's libraries under it: a third of a second to load) only where
  // migrations run: a process whose schema is up to date never loads it.
  const extensions = options.migrator ? [(await import('@mikro-orm/migrations')).Migrator] : [];
  const migrationsList = options.migrator ? await migrationClasses() : [];
  return MikroORM.init({
    clientUrl,
    entities: SCHEMAS,
    discovery: { warnWhenNoEntities: false },
    extensions,
    migrations: {
      migrationsList: migrationsList as never,
      transactional: true,
      allOrNothing: true,
      silent: true,
      snapshot: false,
    },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      acquireTimeoutMillis: connectTimeout,
      createTimeoutMillis: connectTimeout,
    },
    driverOptions: {
      connection: {
        connectionTimeoutMillis: connectTimeout,
        keepAlive: true,
        ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      },
      // knex would print broken connections on the console; they surface where they matter, as 503s in the log.
      log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
    },
    debug: options.debug ?? false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
  });
}

/** The ORM (for aggregates and transactions) and the SQL runner (prepared statements on a pg pool of its own). */
export interface Persistence {
  orm: MikroORM;
  sql: Sql;
  /** The outbox, followed from one connection of this process (opened with its first listener). */
  events: PgEventFeed;
  /** Each pool's connections and waiting queries, for the metrics. */
  poolUse(): { pool: string; open: number; idle: number; waiting: number }[];
  close(): Promise<void>;
}

/** The few members of knex's pool (tarn) the metrics read. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

export async function connect(
  clientUrl: string,
  options: PoolOptions & { notice?: (message: string, details?: Record<string, unknown>) => void } = {},
): Promise<Persistence> {
  const orm = await createOrm(clientUrl, options);
  const pool = new pg.Pool({
    connectionString: clientUrl,
    max: options.poolMax ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    keepAlive: true,
    types: TIMESTAMPS_AS_TEXT,
    // Sent as a startup parameter: behind PgBouncer, list it in ignore_startup_parameters (docs/operations.md).
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    // Every statement of this pool is one of a fixed set of texts, written for a plan that serves every value.
    // Left to choose, PostgreSQL plans a statement anew at every execution when a plan made for the values looks
    // cheaper, as a null one does (a signed-out caller, a filter left out), and planning costs 0.2–0.5 ms where
    // the statement runs in less: the signed-in topic list served 2.3 times the requests with this (bench:ab).
    options: '-c plan_cache_mode=force_generic_plan',
  });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool, which also emits 'error':
  // unheard, that event would end the process. The next query simply gets a fresh connection.
  pool.on('error', () => undefined);
  const events = new PgEventFeed(clientUrl, (error) =>
    options.notice?.('the event feed failed; it reads again from where it was', { err: error }),
  );
  return {
    orm,
    sql: new Sql(orm.em, pool),
    events,
    poolUse() {
      const knexPool = (orm.em.getConnection().getKnex().client as { pool?: TarnPool }).pool;
      return [
        {
          pool: 'orm',
          open: (knexPool?.numUsed() ?? 0) + (knexPool?.numFree() ?? 0),
          idle: knexPool?.numFree() ?? 0,
          waiting: knexPool?.numPendingAcquires() ?? 0,
        },
        { pool: 'sql', open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      ];
    },
    async close() {
      await events.close();
      await pool.end();
      await orm.close(true);
    },
  };
}

export interface MigrationStatus {
  executed: string[];
  pending: string[];
}

/**
 * The advisory lock every migration takes first ('for', 2): held while migrating, so that any number of processes
 * (servers, forumctl, several hosts) may start at once and one migrates at a time.
 */
export const MIGRATION_LOCK = [0x666f72, 2] as const;

/** graphile-worker's own log lines stay out of ours; what matters of its work is in the webhook tables. */
const QUIET_GRAPHILE_LOGGER = new Logger(() => () => undefined);

/** The migrations applied here (MikroORM's own table), in the order they ran; none when the table is not there yet. */
async function appliedMigrations(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ known: boolean }>(`select to_regclass('mikro_orm_migrations') is not null as known`);
  if (!rows[0]?.known) return [];
  return (await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')).rows.map((row) => row.name);
}

/** Runs `work` with an ORM of its own that has the migrator, on one connection without a statement timeout. */
async function withMigrator<T>(clientUrl: string, work: (orm: MikroORM) => Promise<T>): Promise<T> {
  // An index on a large table may take minutes: no server's statement timeout here.
  const migrations = await createOrm(clientUrl, { poolMax: 1, migrator: true });
  try {
    return await work(migrations);
  } finally {
    await migrations.close(true);
  }
}

/**
 * Applies pending migrations under a PostgreSQL advisory lock: the first process applies them, the others wait
 * for it and then find nothing left to do (asked of the migrations' table, without loading the migrator); then the
 * definitions derived from code that changed (derived-definitions.ts). The job queue's schema (graphile-worker's own
 * migrations) comes last: the outbox's statement queues webhook deliveries with its SQL API, so every process that
 * writes needs it.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const clientUrl = orm.config.get('clientUrl') as string;
  const lock = new pg.Client({ connectionString: clientUrl, application_name: 'forum migrations' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
    const done = new Set(await appliedMigrations(lock));
    const pending = MIGRATIONS.some((migration) => !done.has(migration.name));
    const applied = pending ? await withMigrator(clientUrl, (migrations) => migrations.getMigrator().up()) : [];
    await applyDerivedDefinitions(lock);
    await runMigrations({ connectionString: clientUrl, logger: QUIET_GRAPHILE_LOGGER });
    return applied.map((migration) => migration.name);
  } finally {
    await lock.end();
  }
}

export async function migrationStatus(orm: MikroORM): Promise<MigrationStatus> {
  return withMigrator(orm.config.get('clientUrl') as string, async (migrations) => {
    const migrator = migrations.getMigrator();
    const [executed, pending] = await Promise.all([migrator.getExecutedMigrations(), migrator.getPendingMigrations()]);
    return { executed: executed.map((m) => m.name), pending: pending.map((m) => m.name) };
  });
}

/** A migration `rollback` would undo, and whether it can: one without a `down()` of its own cannot. */
export interface RollbackStep {
  name: string;
  reversible: boolean;
}

/**
 * What undoing the schema back to `to` takes (that migration included), newest first; without `to`, the last
 * migration applied. Nothing applied: nothing to undo. `to` not applied: null.
 */
export async function rollbackPlan(orm: MikroORM, to?: string): Promise<RollbackStep[] | null> {
  const client = new pg.Client({ connectionString: orm.config.get('clientUrl') as string });
  await client.connect();
  const executed = (await appliedMigrations(client).finally(() => client.end())).reverse();
  const count = to === undefined ? Math.min(1, executed.length) : executed.indexOf(to) + 1;
  if (count === 0 && to !== undefined) return null;
  const classes = await migrationClasses();
  return executed.slice(0, count).map((name) => ({ name, reversible: reversible(classes, name) }));
}

/** A migration that does not override `down()` inherits MikroORM's, which throws: it cannot be undone. */
function reversible(classes: { name: string; class: new (...args: never[]) => object }[], name: string): boolean {
  const listed = classes.find((migration) => migration.name === name);
  return listed !== undefined && Object.prototype.hasOwnProperty.call(listed.class.prototype, 'down');
}

/**
 * Runs the `down()` of `names` (a plan from `rollbackPlan`, newest first) in one transaction, under the
 * migrations' advisory lock. Refuses when the plan no longer matches what is applied (another process migrated
 * meanwhile) or names a migration that cannot be undone: then nothing is undone.
 */
export async function rollback(orm: MikroORM, names: string[]): Promise<string[]> {
  if (!names.length) return [];
  const clientUrl = orm.config.get('clientUrl') as string;
  const lock = new pg.Client({ connectionString: clientUrl, application_name: 'forum migrations' });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
    const plan = await rollbackPlan(orm, names.at(-1));
    if (!plan || plan.map((step) => step.name).join() !== names.join()) {
      throw new Error('the applied migrations changed meanwhile (another process migrated): nothing was undone; look again');
    }
    const fixed = plan.filter((step) => !step.reversible).map((step) => step.name);
    if (fixed.length) throw new Error(`${fixed.join(', ')} cannot be undone (no down migration): nothing was undone`);
    const undone = await withMigrator(clientUrl, (migrations) => migrations.getMigrator().down({ migrations: names }));
    // What the undone migrations left of the derived definitions is not what their digests say: replay them all at
    // the next migration.
    await forgetDerivedDefinitions(lock);
    return undone.map((migration) => migration.name);
  } finally {
    await lock.end();
  }
}
