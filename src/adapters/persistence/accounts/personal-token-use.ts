import { LAST_USED_PRECISION_MS, type PersonalTokenUse } from '../../../application/tokens/personal-tokens.js';
import type { Sql } from '../database/sql.js';
import { RecentWrites } from '../database/recent-writes.js';

/**
 * A personal token's `last_used_at`, written at most once per token per LAST_USED_PRECISION_MS, as SqlPresence
 * writes a visit: this process's memo answers almost every request without a statement, and the update's
 * condition keeps the processes of a cluster (each with its own memo) to one write per period. Only a live
 * personal token is marked.
 */
export class SqlPersonalTokenUse implements PersonalTokenUse {
  private readonly written: RecentWrites;

  constructor(
    private readonly sql: Sql,
    private readonly precisionMs = LAST_USED_PRECISION_MS,
  ) {
    this.written = new RecentWrites(precisionMs);
  }

  async used(accessDigest: string, at: Date): Promise<void> {
    if (!this.written.due(accessDigest, at.getTime())) return;
    try {
      await this.sql.count(
        `update oauth_tokens set last_used_at = $2
         where access_digest = $1 and name is not null and revoked_at is null and expires_at > $2
           and (last_used_at is null or last_used_at < $2::timestamptz - make_interval(secs => $3))`,
        [accessDigest, at.toISOString(), this.precisionMs / 1000],
      );
    } catch {
      // Not written (the database is away): the next use tries again. It must never fail the request it follows.
      this.written.forget(accessDigest);
    }
  }
}
