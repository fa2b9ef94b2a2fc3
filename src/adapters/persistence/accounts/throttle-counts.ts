import { createHash } from 'node:crypto';
import type { ThrottleCount, ThrottleCounts } from '../../../application/throttles/throttle-counts.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

/** A key as stored: its digest (the table never holds what people typed, nor their addresses). */
const stored = (key: string) => createHash('sha256').update(key, 'utf8').digest('base64url');

/**
 * The throttles' counts in `throttle_counts`, every process's (migration 20261128050000): one statement per call,
 * whatever the number of keys. A window that ended starts again at the next count, in the same upsert.
 */
export class SqlThrottleCounts implements ThrottleCounts {
  constructor(private readonly sql: Sql) {}

  async add(entries: readonly { key: string; amount: number; endsAt: Date }[], now: Date): Promise<ThrottleCount[]> {
    if (entries.length === 0) return [];
    const byKey = new Map(entries.map((entry) => [stored(entry.key), entry.key]));
    const rows = await this.sql.all<{ key: string; count: number; ends_at: Timestamp }>(
      `insert into throttle_counts as t (key, count, ends_at)
       select key, sum(amount)::int, max(ends_at) from unnest($1::text[], $2::int[], $3::timestamptz[]) as e(key, amount, ends_at)
       group by key order by key
       on conflict (key) do update set
         count = case when t.ends_at <= $4 then excluded.count else t.count + excluded.count end,
         ends_at = case when t.ends_at <= $4 then excluded.ends_at else t.ends_at end
       returning key, count, ends_at`,
      [
        entries.map((e) => stored(e.key)),
        entries.map((e) => e.amount),
        entries.map((e) => e.endsAt.toISOString()),
        now.toISOString(),
      ],
    );
    return rows.map((row) => ({ key: byKey.get(row.key)!, count: row.count, endsAt: toDate(row.ends_at)! }));
  }

  async read(keys: readonly string[], now: Date): Promise<ThrottleCount[]> {
    if (keys.length === 0) return [];
    const byKey = new Map(keys.map((key) => [stored(key), key]));
    const rows = await this.sql.all<{ key: string; count: number; ends_at: Timestamp }>(
      'select key, count, ends_at from throttle_counts where key = any($1::text[]) and ends_at > $2',
      [[...byKey.keys()], now.toISOString()],
    );
    return rows.map((row) => ({ key: byKey.get(row.key)!, count: row.count, endsAt: toDate(row.ends_at)! }));
  }

  async clear(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.sql.count('delete from throttle_counts where key = any($1::text[])', [keys.map(stored)]);
  }

  async forgetEnded(now: Date): Promise<void> {
    await this.sql.count('delete from throttle_counts where ends_at <= $1', [now.toISOString()]);
  }
}
