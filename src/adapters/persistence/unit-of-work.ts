import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../../application/ports.js';
import type { Sql } from './sql.js';

/** The pg connection under a knex transaction, with the marks knex and pg leave on it when it breaks. */
interface TransactionConnection {
  __knex__disposed?: unknown;
  _ending?: boolean;
  _queryable?: boolean;
}

/**
 * One database transaction per write use case. Inside it, every repository's `em` resolves to the transaction's
 * fork (MikroORM's transaction context), raw SQL included; the fork is flushed when the work returns.
 */
export class MikroOrmUnitOfWork implements UnitOfWork {
  constructor(
    private readonly em: EntityManager,
    /** Runs at the end of the work, in the transaction, just before it commits (the staged rows). */
    private readonly beforeCommit: () => Promise<void> = async () => undefined,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    let connection: TransactionConnection | null = null;
    try {
      return await this.em.transactional(async () => {
        const transaction = this.em.getTransactionContext<{ client: { acquireConnection(): Promise<TransactionConnection> } }>();
        connection = (await transaction?.client.acquireConnection()) ?? null;
        const result = await work();
        await this.beforeCommit();
        return result;
      });
    } catch (error) {
      // When the connection breaks, knex marks the transaction complete, and the next statement fails with
      // "Transaction query already complete" rather than with the connection's own error: say what happened.
      if (connection !== null && isBroken(connection)) throw new ConnectionLost(error);
      throw error;
    }
  }
}

function isBroken(connection: TransactionConnection): boolean {
  return connection.__knex__disposed !== undefined || connection._ending === true || connection._queryable === false;
}

/** The transaction's connection broke under it (code 08006, connection_failure, as PostgreSQL names it). */
class ConnectionLost extends Error {
  readonly code = '08006';
  constructor(cause: unknown) {
    super('the database connection was lost during the transaction', { cause });
  }
}

/**
 * The unit of work of a use case whose change is one statement through `Sql` (reply create): no transaction, so
 * no `begin` and `commit`; the rows its events stage ride with that statement (see `Sql.oneStatement`). A use
 * case with more than one write, or with an ORM repository, takes `MikroOrmUnitOfWork`.
 */
export class OneStatementUnitOfWork implements UnitOfWork {
  constructor(
    private readonly sql: Sql,
    /** Writes the staged rows that no statement took. */
    private readonly afterWork: () => Promise<void>,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.sql.oneStatement(work, this.afterWork);
  }
}
