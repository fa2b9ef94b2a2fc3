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

/**
 * Raw SQL for repositories and read models, written with PostgreSQL's own `$1, $2…` placeholders and always
 * sent as named prepared statements with bound values: nothing rewrites the text and no value is ever spliced
 * into it. Every statement text must therefore be one of a fixed set (lists travel as arrays: `= any($1)`).
 *
 * Outside a transaction, statements run on a pg pool of their own (pg's pool costs less per query than knex's;
 * see docs/performance.md). Inside MikroORM's transaction they run on its connection, so they see (and belong
 * to) its writes.
 */
export class Sql {
  /** The one-statement unit of work under way (`oneStatement`): an object to key its staged rows on. */
  private readonly single = new AsyncLocalStorage<object>();

  constructor(
    private readonly em: EntityManager,
    private readonly pool: pg.Pool,
  ) {}

  /**
   * Runs `work`, whose writes are all staged, as a unit of work without a transaction: `afterWork` writes them in
   * one statement, which PostgreSQL makes atomic by itself (`begin` and `commit` would cost two more round trips,
   * each costing the service more CPU than PostgreSQL spends on it: docs/performance.md). The reads before it see
   * what is committed when each runs, as they would in a transaction at PostgreSQL's READ COMMITTED. Inside a
   * transaction already, `work` joins it.
   */
  async oneStatement<T>(work: () => Promise<T>, afterWork: () => Promise<void>): Promise<T> {
    if (this.unitOfWork()) return work();
    return this.single.run({}, async () => {
      const done = await work();
      await afterWork();
      return done;
    });
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

  /**
   * A connection of its own, outside any unit of work, for a job that needs the same one throughout (COPY,
   * temporary tables, a long transaction of its own). The caller releases it (`release(error)` closes it instead).
   */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect();
  }

  /** Whether a database transaction is under way (a transactional unit of work's). */
  inTransaction(): boolean {
    return this.em.getTransactionContext() !== undefined;
  }

  /** The current unit of work (an object to key its state on: a transaction, or a one-statement one), or undefined. */
  unitOfWork(): object | undefined {
    return this.em.getTransactionContext<KnexTransaction>() ?? this.single.getStore();
  }

  private async runner(): Promise<Queryable> {
    const transaction = this.em.getTransactionContext<KnexTransaction>();
    return transaction ? transaction.client.acquireConnection() : this.pool;
  }
}
