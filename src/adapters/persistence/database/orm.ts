import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Logger, runMigrations } from 'graphile-worker';
import { applyDerivedDefinitions, forgetDerivedDefinitions } from './derived-definitions.js';
import { Sql } from './sql.js';
import { PgEventFeed } from '../events/event-feed.js';
import { Migrator } from '@mikro-orm/migrations';
import { Migration20261121000000_initial } from '../migrations/Migration20261121000000_initial.js';
import { Migration20261122000000_oauth } from '../migrations/Migration20261122000000_oauth.js';
import { Migration20261122010000_maintenance } from '../migrations/Migration20261122010000_maintenance.js';
import { Migration20261123000000_token_families } from '../migrations/Migration20261123000000_token_families.js';
import { Migration20261123010000_devices_activity } from '../migrations/Migration20261123010000_devices_activity.js';
import { Migration20261124000000_authorization_code } from '../migrations/Migration20261124000000_authorization_code.js';
import { Migration20261124010000_search } from '../migrations/Migration20261124010000_search.js';
import { Migration20261124020000_search_walks } from '../migrations/Migration20261124020000_search_walks.js';
import { Migration20261124030000_events } from '../migrations/Migration20261124030000_events.js';
import { Migration20261124040000_webhooks } from '../migrations/Migration20261124040000_webhooks.js';
import { Migration20261124050000_audit } from '../migrations/Migration20261124050000_audit.js';
import { Migration20261124060000_rate_limits } from '../migrations/Migration20261124060000_rate_limits.js';
import { Migration20261124070000_unread_counts } from '../migrations/Migration20261124070000_unread_counts.js';
import { Migration20261124080000_search_functions } from '../migrations/Migration20261124080000_search_functions.js';
import { Migration20261125000000_search_text } from '../migrations/Migration20261125000000_search_text.js';
import { Migration20261126000000_search_functions_module } from '../migrations/Migration20261126000000_search_functions_module.js';
import { Migration20261126010000_notification_events } from '../migrations/Migration20261126010000_notification_events.js';
import { Migration20261126020000_notifications_by_reply } from '../migrations/Migration20261126020000_notifications_by_reply.js';
import { Migration20261126030000_sections_pins_public_email } from '../migrations/Migration20261126030000_sections_pins_public_email.js';
import { Migration20261126040000_accounts } from '../migrations/Migration20261126040000_accounts.js';
import { Migration20261126050000_mail_preferences } from '../migrations/Migration20261126050000_mail_preferences.js';
import { Migration20261126060000_notification_mail } from '../migrations/Migration20261126060000_notification_mail.js';
import { Migration20261126070000_digests } from '../migrations/Migration20261126070000_digests.js';
import { Migration20261126080000_inbound_mail } from '../migrations/Migration20261126080000_inbound_mail.js';
import { Migration20261128000000_review } from '../migrations/Migration20261128000000_review.js';
import { Migration20261128010000_uploads } from '../migrations/Migration20261128010000_uploads.js';
import { Migration20261128020000_imports } from '../migrations/Migration20261128020000_imports.js';
import { Migration20261128030000_effects_in_code } from '../migrations/Migration20261128030000_effects_in_code.js';
import { Migration20261128040000_left_accounts } from '../migrations/Migration20261128040000_left_accounts.js';
import { Migration20261128050000_throttle_counts } from '../migrations/Migration20261128050000_throttle_counts.js';
import { Migration20261128060000_section_ids } from '../migrations/Migration20261128060000_section_ids.js';
import { SCHEMAS } from './schemas.js';
import { TIMESTAMPS_AS_TEXT } from './timestamps.js';

/**
 * No request waits longer than this for a connection: when the database is down or every connection is busy,
 * it fails fast (and answers 503) instead of hanging.
 */
export const CONNECT_TIMEOUT_MS = 3_000;

/** Listed, not discovered: no glob at run time, and the build output is all that is needed. */
export const MIGRATIONS = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
  { name: 'Migration20261122000000_oauth', class: Migration20261122000000_oauth },
  { name: 'Migration20261122010000_maintenance', class: Migration20261122010000_maintenance },
  { name: 'Migration20261123000000_token_families', class: Migration20261123000000_token_families },
  { name: 'Migration20261123010000_devices_activity', class: Migration20261123010000_devices_activity },
  { name: 'Migration20261124000000_authorization_code', class: Migration20261124000000_authorization_code },
  { name: 'Migration20261124010000_search', class: Migration20261124010000_search },
  { name: 'Migration20261124020000_search_walks', class: Migration20261124020000_search_walks },
  { name: 'Migration20261124030000_events', class: Migration20261124030000_events },
  { name: 'Migration20261124040000_webhooks', class: Migration20261124040000_webhooks },
  { name: 'Migration20261124050000_audit', class: Migration20261124050000_audit },
  { name: 'Migration20261124060000_rate_limits', class: Migration20261124060000_rate_limits },
  { name: 'Migration20261124070000_unread_counts', class: Migration20261124070000_unread_counts },
  { name: 'Migration20261124080000_search_functions', class: Migration20261124080000_search_functions },
  { name: 'Migration20261125000000_search_text', class: Migration20261125000000_search_text },
  { name: 'Migration20261126000000_search_functions_module', class: Migration20261126000000_search_functions_module },
  { name: 'Migration20261126010000_notification_events', class: Migration20261126010000_notification_events },
  { name: 'Migration20261126020000_notifications_by_reply', class: Migration20261126020000_notifications_by_reply },
  {
    name: 'Migration20261126030000_sections_pins_public_email',
    class: Migration20261126030000_sections_pins_public_email,
  },
  { name: 'Migration20261126040000_accounts', class: Migration20261126040000_accounts },
  { name: 'Migration20261126050000_mail_preferences', class: Migration20261126050000_mail_preferences },
  { name: 'Migration20261126060000_notification_mail', class: Migration20261126060000_notification_mail },
  { name: 'Migration20261126070000_digests', class: Migration20261126070000_digests },
  { name: 'Migration20261126080000_inbound_mail', class: Migration20261126080000_inbound_mail },
  { name: 'Migration20261128000000_review', class: Migration20261128000000_review },
  { name: 'Migration20261128010000_uploads', class: Migration20261128010000_uploads },
  { name: 'Migration20261128020000_imports', class: Migration20261128020000_imports },
  { name: 'Migration20261128030000_effects_in_code', class: Migration20261128030000_effects_in_code },
  { name: 'Migration20261128040000_left_accounts', class: Migration20261128040000_left_accounts },
  { name: 'Migration20261128050000_throttle_counts', class: Migration20261128050000_throttle_counts },
  { name: 'Migration20261128060000_section_ids', class: Migration20261128060000_section_ids },
];

/** How the pools connect; a server sets all three, forumctl and migrations leave statements unbounded. */
export interface PoolOptions {
  poolMax?: number;
  /** A statement running longer is cancelled by PostgreSQL (0 or absent: no limit). */
  statementTimeoutMs?: number;
  /** How long a query may wait for a connection, or a connection take to open. */
  connectTimeoutMs?: number;
}

export async function createOrm(clientUrl: string, options: PoolOptions & { debug?: boolean } = {}): Promise<MikroORM> {
  const connectTimeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  return MikroORM.init({
    clientUrl,
    entities: SCHEMAS,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, silent: true, snapshot: false },
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

/**
 * Applies pending migrations under a PostgreSQL advisory lock: the first process applies them, the others wait
 * for it and then find nothing left to do; then the definitions derived from code that changed (derived-definitions.ts). The job queue's schema (graphile-worker's own migrations) comes
 * last: the outbox's statement queues webhook deliveries with its SQL API, so every process that writes needs it.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const clientUrl = orm.config.get('clientUrl') as string;
  const lock = new pg.Client({ connectionString: clientUrl, application_name: 'forum migrations' });
  await lock.connect();
  // Its own connection, without the server's statement timeout: an index on a large table may take minutes.
  const migrations = await createOrm(clientUrl, { poolMax: 1 });
  try {
    await lock.query('select pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
    const applied = await migrations.getMigrator().up();
    await applyDerivedDefinitions(lock);
    await runMigrations({ connectionString: clientUrl, logger: QUIET_GRAPHILE_LOGGER });
    return applied.map((migration) => migration.name);
  } finally {
    await migrations.close(true);
    await lock.end();
  }
}

export async function migrationStatus(orm: MikroORM): Promise<MigrationStatus> {
  const migrator = orm.getMigrator();
  const [executed, pending] = await Promise.all([migrator.getExecutedMigrations(), migrator.getPendingMigrations()]);
  return { executed: executed.map((m) => m.name), pending: pending.map((m) => m.name) };
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
  const executed = (await orm.getMigrator().getExecutedMigrations()).map((m) => m.name).reverse();
  const count = to === undefined ? Math.min(1, executed.length) : executed.indexOf(to) + 1;
  if (count === 0 && to !== undefined) return null;
  return executed.slice(0, count).map((name) => ({ name, reversible: reversible(name) }));
}

/** A migration that does not override `down()` inherits MikroORM's, which throws: it cannot be undone. */
function reversible(name: string): boolean {
  const listed = MIGRATIONS.find((migration) => migration.name === name);
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
  const migrations = await createOrm(clientUrl, { poolMax: 1 });
  try {
    await lock.query('select pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
    const plan = await rollbackPlan(migrations, names.at(-1));
    if (!plan || plan.map((step) => step.name).join() !== names.join()) {
      throw new Error('the applied migrations changed meanwhile (another process migrated): nothing was undone; look again');
    }
    const fixed = plan.filter((step) => !step.reversible).map((step) => step.name);
    if (fixed.length) throw new Error(`${fixed.join(', ')} cannot be undone (no down migration): nothing was undone`);
    const undone = await migrations.getMigrator().down({ migrations: names });
    // What the undone migrations left of the derived definitions is not what their digests say: replay them all at
    // the next migration.
    await forgetDerivedDefinitions(lock);
    return undone.map((migration) => migration.name);
  } finally {
    await migrations.close(true);
    await lock.end();
  }
}
