import { type Presence, SEEN_PRECISION_MS } from '../../../application/accounts/presence.js';
import type { Sql } from '../database/sql.js';
import { RecentWrites } from '../database/recent-writes.js';

/**
 * `users.last_seen_at`, written at most once per user per SEEN_PRECISION_MS (contract §17). The authenticated
 * request is the hottest path there is, so two guards keep it from writing per request: an in-process memo of
 * when this process last wrote for each user (or token), which answers almost every call without a statement,
 * and a condition in the update, so that the processes of a cluster, each with its own memo, still write the
 * row once per period (an update that matches nothing leaves the row, its index entries and the WAL alone).
 */
export class SqlPresence implements Presence {
  private readonly written: RecentWrites;

  constructor(
    private readonly sql: Sql,
    private readonly precisionMs = SEEN_PRECISION_MS,
  ) {
    this.written = new RecentWrites(precisionMs);
  }

  async seen(who: { userId: number } | { accessDigest: string }, at: Date): Promise<void> {
    const key = 'userId' in who ? `u${who.userId}` : `t${who.accessDigest}`;
    if (!this.written.due(key, at.getTime())) return;
    const params = ['userId' in who ? who.userId : who.accessDigest, at.toISOString(), this.precisionMs / 1000];
    try {
      await this.sql.count(
        'userId' in who
          ? `update users set last_seen_at = $2
             where id = $1 and last_seen_at < $2::timestamptz - make_interval(secs => $3)`
          : // A token nothing looked up yet: its user, if it is live (as the token lookup of every read has it).
            `update users u set last_seen_at = $2
             from oauth_tokens k
             where k.access_digest = $1 and k.revoked_at is null and k.expires_at > $2 and u.id = k.user_id
               and u.last_seen_at < $2::timestamptz - make_interval(secs => $3)`,
        params,
      );
    } catch {
      // Not written (the database is away): forgotten, so that the next visit tries again. A lost mark could at
      // worst mail a digest to someone who was here; it must never fail the request that was being served.
      this.written.forget(key);
    }
  }
}
