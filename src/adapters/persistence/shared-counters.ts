import type { Sql } from './database/sql.js';

/**
 * The rate limiter's counts, shared by every process through the `rate_limit_counts` table: the shape of the HTTP
 * adapter's SharedCounters (src/adapters/api/window-limiter.ts), which the composition root checks.
 */
export class SqlSharedCounters {
  constructor(private readonly sql: Sql) {}

  /** One statement for every key of the interval: upsert the increments, return the totals. */
  async add(window: number, increments: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    const rows = await this.sql.all<{ key: string; count: number }>(
      `insert into rate_limit_counts (key, window_start, count)
       select key, $1, count from unnest($2::text[], $3::int[]) as i(key, count)
       on conflict (key, window_start) do update set count = rate_limit_counts.count + excluded.count
       returning key, count`,
      [window, [...increments.keys()], [...increments.values()]],
    );
    return new Map(rows.map((row) => [row.key, row.count]));
  }

  async forget(window: number): Promise<void> {
    await this.sql.count('delete from rate_limit_counts where window_start < $1', [window]);
  }
}
