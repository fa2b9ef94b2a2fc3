import { createHash } from 'node:crypto';
import type pg from 'pg';
import { SEARCH_FUNCTIONS_SCRIPT } from './search-functions.js';

/**
 * Definitions the database holds that are derived from code rather than written by a migration: the search
 * functions, generated from the visibility policy's compiler (search-functions.ts). A migration is history, frozen
 * when it ran; these follow the code. Every migration run (the server's start, `forumctl db migrate`) compares each
 * one's digest with the digest recorded when it was last applied, and replays those that changed, in one
 * transaction, under the migrations' lock. A database that already has them as they are is not touched.
 */
const DERIVED: Record<string, string> = {
  'search functions': SEARCH_FUNCTIONS_SCRIPT,
};

const digestOf = (script: string) => createHash('sha256').update(script).digest('hex');

/** Replays the derived definitions whose text changed since they were applied here; returns their names. */
export async function applyDerivedDefinitions(client: pg.ClientBase): Promise<string[]> {
  await client.query(`create table if not exists derived_definitions (
    name text primary key, digest text not null, applied_at timestamptz(3) not null default now())`);
  const { rows } = await client.query<{ name: string; digest: string }>('select name, digest from derived_definitions');
  const applied = new Map(rows.map((row) => [row.name, row.digest]));
  const changed = Object.entries(DERIVED).filter(([name, script]) => applied.get(name) !== digestOf(script));
  if (changed.length === 0) return [];
  await client.query('begin');
  try {
    for (const [name, script] of changed) {
      await client.query(script);
      await client.query(
        `insert into derived_definitions (name, digest) values ($1, $2)
         on conflict (name) do update set digest = excluded.digest, applied_at = now()`,
        [name, digestOf(script)],
      );
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  return changed.map(([name]) => name);
}

/** Forgets what was applied (a rollback may have put older definitions back): the next migration replays them all. */
export async function forgetDerivedDefinitions(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<{ known: boolean }>(`select to_regclass('derived_definitions') is not null as known`);
  if (rows[0]?.known) await client.query('delete from derived_definitions');
}
