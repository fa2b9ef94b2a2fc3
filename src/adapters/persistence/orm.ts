import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { Sql } from './sql.js';
import { Migrator } from '@mikro-orm/migrations';
import { Migration20261121000000_initial } from './migrations/Migration20261121000000_initial.js';
import { Migration20261122000000_oauth } from './migrations/Migration20261122000000_oauth.js';
import { Migration20261122010000_maintenance } from './migrations/Migration20261122010000_maintenance.js';
import { SCHEMAS } from './schemas.js';

/** Listed, not discovered: no glob at run time, and the build output is all that is needed. */
export const MIGRATIONS = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
  { name: 'Migration20261122000000_oauth', class: Migration20261122000000_oauth },
  { name: 'Migration20261122010000_maintenance', class: Migration20261122010000_maintenance },
];

export async function createOrm(clientUrl: string, options: { poolMax?: number; debug?: boolean } = {}): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl,
    entities: SCHEMAS,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, silent: true, snapshot: false },
    pool: { min: 0, max: options.poolMax ?? 10 },
    debug: options.debug ?? false,
    allowGlobalContext: false,
    forceUtcTimezone: true,
  });
}

/** The ORM (for aggregates and transactions) and the SQL runner (prepared statements on a pg pool of its own). */
export interface Persistence {
  orm: MikroORM;
  sql: Sql;
  close(): Promise<void>;
}

export async function connect(clientUrl: string, options: { poolMax?: number } = {}): Promise<Persistence> {
  const orm = await createOrm(clientUrl, options);
  const pool = new pg.Pool({ connectionString: clientUrl, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 });
  // An idle connection that breaks (PostgreSQL restarted) is dropped by the pool, which also emits 'error':
  // unheard, that event would end the process. The next query simply gets a fresh connection.
  pool.on('error', () => undefined);
  return {
    orm,
    sql: new Sql(orm.em, pool),
    async close() {
      await pool.end();
      await orm.close(true);
    },
  };
}

export interface MigrationStatus {
  executed: string[];
  pending: string[];
}

export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.getMigrator().up();
  return applied.map((migration) => migration.name);
}

export async function migrationStatus(orm: MikroORM): Promise<MigrationStatus> {
  const migrator = orm.getMigrator();
  const [executed, pending] = await Promise.all([migrator.getExecutedMigrations(), migrator.getPendingMigrations()]);
  return { executed: executed.map((m) => m.name), pending: pending.map((m) => m.name) };
}
