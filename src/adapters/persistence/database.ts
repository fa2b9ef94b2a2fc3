import { RequestContext } from '@mikro-orm/postgresql';
import type { Config } from '../../config.js';
import { EmbeddedPostgres } from './embedded-postgres.js';
import { connect, type Persistence } from './orm.js';

/** An open database: the ORM, and how to leave it (stopping an embedded cluster nobody else uses). */
export interface Database extends Persistence {
  /** Runs `work` in a fresh MikroORM context (one per HTTP request or CLI action). */
  scope<T>(work: () => Promise<T>): Promise<T>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openDatabase(config: Config, options: { poolMax?: number } = {}): Promise<Database> {
  const embedded = config.databaseUrl ? null : new EmbeddedPostgres(config.dataDir);
  const url = config.databaseUrl ?? (await embedded!.ensureRunning());
  const persistence = await connect(url, options);
  const { orm } = persistence;
  return {
    ...persistence,
    scope: (work) => RequestContext.create(orm.em, work),
    isReady: () => orm.isConnected(),
    async close() {
      await persistence.close();
      await embedded?.stopIfIdle();
    },
  };
}
