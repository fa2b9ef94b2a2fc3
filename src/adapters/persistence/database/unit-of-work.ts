import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../../../application/ports.js';
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
    private readonly conflicts: ConflictRetries = new ConflictRetries(),
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return retryingConflicts(() => this.once(work), this.conflicts);
  }

  private async once<T>(work: () => Promise<T>): Promise<T> {
    let connection: TransactionConnection | null = null;
    try {
      return await this.em.transactional(async () => {
        const transaction = this.em.getTransactionContext<{ client: { acquireConnection(): Promise<TransactionConnection> } }>();
        connection = (await transaction?.client.acquireConnection()) ?? null;
        const result = await work();
        // The aggregates' own rows first, then the staged rows: every writer locks in that order (staged-rows.ts).
        await this.em.flush();
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
 * The unit of work of a use case whose every write is staged (reply create: staged-rows.ts): they are written at
 * its end in one statement, atomic by itself, so no transaction is opened (no `begin`, no `commit`). A use case
 * that writes through the ORM, or in more than one statement, takes `MikroOrmUnitOfWork`.
 */
export class OneStatementUnitOfWork implements UnitOfWork {
  constructor(
    private readonly sql: Sql,
    /** Writes the staged rows that no statement took. */
    private readonly afterWork: () => Promise<void>,
    private readonly conflicts: ConflictRetries = new ConflictRetries(),
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    // Inside a transaction already, it joins it: the transaction's own unit of work tries again, not this one.
    if (this.sql.unitOfWork()) return work();
    return retryingConflicts(() => this.sql.oneStatement(work, this.afterWork), this.conflicts);
  }
}

/**
 * How many units of work PostgreSQL aborted as conflicts in this process (deadlocks, serialization failures), by
 * its code: each was tried again (or answered 503 after the last try). Deadlocks should never happen (the lock
 * order, staged/writers.ts), so a count that grows is a broken order; `/metrics` shows it
 * (`forum_unit_of_work_conflicts_total`), and the tests that write concurrently assert it stays still.
 */
export class ConflictRetries {
  private readonly counts = new Map<string, number>();
  private readonly lately: string[] = [];

  /**
   * A conflict of `code`; `where` is PostgreSQL's word on the lock it waited for ("while locking tuple (0,3) in relation
   * "users"", the statement of a trigger): names of relations and rows' places, never a value.
   */
  record(code: string, where = ''): void {
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
    this.lately.push(`${code}${where ? `: ${where}` : ''}`);
    if (this.lately.length > 10) this.lately.shift();
  }

  /** The last ten conflicts, with where each waited: what a test that saw one says of it. */
  recent(): readonly string[] {
    return [...this.lately];
  }

  /** Conflicts of `code` so far (`40P01`: deadlock_detected; `40001`: serialization_failure). */
  count(code: string): number {
    return this.counts.get(code) ?? 0;
  }

  /** Every code seen, with its count. */
  all(): [code: string, count: number][] {
    return [...this.counts];
  }
}

/** PostgreSQL's codes for a transaction aborted because of others, to be run again: deadlock_detected, serialization_failure. */
const CONFLICTS = new Set(['40P01', '40001']);

/** Tries in all before the conflict is given up (and answered 503: unavailable.ts counts it as unavailable). */
export const CONFLICT_TRIES = 3;

/**
 * Runs a unit of work again, from the start, when PostgreSQL aborted it as a deadlock or a serialization failure:
 * nothing of it was kept, and a second try usually goes through. The lock order (staged-rows.ts) makes deadlocks
 * rare; this keeps the rest from reaching users as errors.
 */
async function retryingConflicts<T>(run: () => Promise<T>, conflicts: ConflictRetries): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const conflict = conflictOf(error);
      if (conflict === null) throw error;
      conflicts.record(conflict.code, conflict.where);
      if (attempt >= CONFLICT_TRIES) throw error;
    }
  }
}

/** The conflict's code and PostgreSQL's context of it, or null when the error is no conflict. */
function conflictOf(error: unknown): { code: string; where: string } | null {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    const { code, where } = cause as { code?: unknown; where?: unknown };
    if (typeof code === 'string' && CONFLICTS.has(code)) return { code, where: typeof where === 'string' ? where : '' };
    if (cause === (cause as { cause?: unknown }).cause) break;
  }
  return null;
}
