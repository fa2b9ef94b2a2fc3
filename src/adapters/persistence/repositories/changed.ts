import type { Sql } from '../database/sql.js';

/*
 * Aggregates go through `em`, MikroORM's context-aware manager, and raw SQL through `Sql`; inside a unit of work
 * both use the transaction, so aggregates and join rows commit (or roll back) together; what follows a change
 * (counters, notifications, the outbox) is staged for its end (staged-rows.ts). Join rows use `on conflict do
 * nothing` and report whether a row really changed: idempotent under concurrency.
 */

/** Runs a statement on join rows and says whether it changed any. */
export async function changed(sql: Sql, statement: string, params: unknown[]): Promise<boolean> {
  return (await sql.count(statement, params)) > 0;
}
