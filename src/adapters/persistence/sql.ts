import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

/** A stable name per statement text, computed once each: PostgreSQL parses and plans it once per connection. */
const names = new Map<string, string>();

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `forum_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/** Something that runs a pg query: a pool, or the one connection of a transaction. */
type Queryable = Pick<pg.Pool, 'query'>;

/** Knex's transaction object, as MikroORM keeps it for the current unit of work. */
interface KnexTransaction {
  client: { acquireConnection(): Promise<pg.ClientBase> };
}

/** A transaction of the SQL pool's own (`Sql.transactional`): its connection. */
interface PoolTransaction {
  client: pg.PoolClient;
}

/**
 * Raw SQL for repositories and read models, written with PostgreSQL's own `$1, $2…` placeholders and always
 * sent as named prepared statements with bound values: nothing rewrites the text and no value is ever spliced
 * into it. Every statement text must therefore be one of a fixed set (lists travel as arrays: `= any($1)`).
 *
 * Outside a transaction, statements run on a pg pool of their own (pg's pool costs less per query than knex's;
 * see docs/performance.md). Inside a unit of work they run on the transaction's connection, so they see (and
 * belong to) its writes: MikroORM's transaction, or one of the pool's own (`transactional`).
 */
export class Sql {
  private readonly own = new AsyncLocalStorage<PoolTransaction>();

  constructor(
    private readonly em: EntityManager,
    private readonly pool: pg.Pool,
  ) {}

  /**
   * Runs `work` in a transaction on a connection of the pool, without MikroORM and knex (their transaction
   * machinery costs about 280 µs of CPU, more than the transaction itself: docs/performance.md). For work
   * written in SQL from end to end: an ORM repository would not see this transaction. Inside a transaction
   * already (either kind), `work` simply joins it. `beforeCommit` runs last, in the transaction.
   */
  async transactional<T>(work: () => Promise<T>, beforeCommit: () => Promise<void>): Promise<T> {
    if (this.transaction()) return work();
    const client = await this.pool.connect();
    let reusable = true;
    // A lent connection that breaks (PostgreSQL restarted) emits 'error': unheard, that would end the process.
    // The statement under way fails with it anyway; the connection must not be lent again.
    const broken = () => (reusable = false);
    client.on('error', broken);
    try {
      await client.query('begin');
      const result = await this.own.run({ client }, async () => {
        const done = await work();
        await beforeCommit();
        return done;
      });
      await client.query('commit');
      return result;
    } catch (error) {
      // A connection that cannot even roll back is broken: the pool must not lend it again.
      await client.query('rollback').catch(() => (reusable = false));
      throw error;
    } finally {
      client.off('error', broken);
      client.release(!reusable);
    }
  }

  async all<T>(text: string, values: readonly unknown[] = []): Promise<T[]> {
    const runner = await this.runner();
    const result = await runner.query({ name: statementName(text), text, values: values as unknown[] });
    return result.rows as T[];
  }

  async one<T>(text: string, values: readonly unknown[] = []): Promise<T | null> {
    return (await this.all<T>(text, values))[0] ?? null;
  }

  /** Runs an insert, update or delete and returns how many rows it touched. */
  async count(text: string, values: readonly unknown[] = []): Promise<number> {
    const runner = await this.runner();
    const result = await runner.query({ name: statementName(text), text, values: values as unknown[] });
    return result.rowCount ?? 0;
  }

  /** The current transaction (an object to key per-transaction state on), or undefined outside one. */
  transaction(): object | undefined {
    return this.own.getStore() ?? this.em.getTransactionContext<KnexTransaction>();
  }

  private async runner(): Promise<Queryable> {
    const own = this.own.getStore();
    if (own) return own.client;
    const transaction = this.em.getTransactionContext<KnexTransaction>();
    return transaction ? transaction.client.acquireConnection() : this.pool;
  }
}
