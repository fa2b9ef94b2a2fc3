import { setTimeout as sleep } from 'node:timers/promises';
import { RequestContext } from '@mikro-orm/postgresql';
import type { Config } from '../../../config.js';
import { type ClusterLease, EmbeddedPostgres } from './embedded-postgres.js';
import { connect, type Persistence, type PoolOptions } from './orm.js';
import { isDatabaseUnavailable } from './unavailable.js';

/** An open database: the ORM, and how to leave it (stopping an embedded cluster nobody else uses). */
export interface Database extends Persistence {
  /** Runs `work` in a fresh MikroORM context (one per HTTP request or CLI action). */
  scope<T>(work: () => Promise<T>): Promise<T>;
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export interface DatabaseOptions extends PoolOptions {
  /** Told when the embedded cluster goes away and when it is back (the server logs it). */
  notice?: (message: string, details?: Record<string, unknown>) => void;
}

export async function openDatabase(config: Config, options: DatabaseOptions = {}): Promise<Database> {
  if (config.databaseUrl) return withScope(await connect(config.databaseUrl, options), async () => undefined);
  if (config.production) {
    // A production deployment that lost its DATABASE_URL must not quietly start an empty database of its own.
    throw new Error(
      'DATABASE_URL is not set: in production (NODE_ENV=production) the service needs a PostgreSQL to connect to, ' +
        'and will not start an embedded one',
    );
  }

  const cluster = new EmbeddedPostgres(config.dataDir);
  const attached = await attach(cluster);
  const persistence = await connect(attached.url, options).catch(async (error: unknown) => {
    await attached.lease.release();
    throw error;
  });
  const keeper = new LeaseKeeper(cluster, attached.lease, options.notice ?? (() => undefined));
  return withScope(persistence, async () => {
    await keeper.release();
    await cluster.stopUnlessLeased();
  });
}

function withScope(persistence: Persistence, leave: () => Promise<void>): Database {
  const { orm } = persistence;
  return {
    ...persistence,
    scope: (work) => RequestContext.create(orm.em, work),
    isReady: () => orm.isConnected(),
    async close() {
      await persistence.close();
      await leave();
    },
  };
}

/**
 * Starts (or finds) the cluster and takes a lease on it. A cluster caught shutting down (another process was
 * stopping it just then) refuses us for a moment: wait, start it again and retry.
 */
async function attach(cluster: EmbeddedPostgres, options: { samePort?: boolean } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      const url = await cluster.ensureRunning(options);
      return { url, lease: await cluster.lease() };
    } catch (error) {
      if (attempt >= 10 || !isDatabaseUnavailable(error)) throw error;
      await sleep(100 * attempt);
    }
  }
}

/**
 * Holds this process's lease for as long as it runs. If the cluster goes away anyway (stopped by hand, crashed),
 * it starts it again on the same port and takes a new lease; the pools reconnect by themselves, and until then
 * requests answer 503 and /readyz says so.
 */
class LeaseKeeper {
  private released = false;

  constructor(
    private readonly cluster: EmbeddedPostgres,
    private lease: ClusterLease,
    private readonly notice: (message: string, details?: Record<string, unknown>) => void,
  ) {
    void this.watch();
  }

  async release(): Promise<void> {
    this.released = true;
    await this.lease.release();
  }

  private async watch(): Promise<void> {
    await this.lease.lost;
    if (this.released) return;
    this.notice('embedded PostgreSQL went away; starting it again');
    for (let attempt = 1; !this.released; attempt++) {
      try {
        const { lease } = await attach(this.cluster, { samePort: true });
        if (this.released) {
          await lease.release();
          return;
        }
        this.lease = lease;
        this.notice('embedded PostgreSQL is back');
        void this.watch();
        return;
      } catch (error) {
        if (attempt === 1 || attempt % 30 === 0)
          this.notice('embedded PostgreSQL could not be started yet', { error: String(error) });
        await sleep(1_000);
      }
    }
  }
}
