import type { CeremonyChallengeStore } from '../../../application/second-factors/ports.js';
import type { Sql } from '../database/sql.js';

/** The challenges of passkey ceremonies in `passkey_challenges` (migration 20261129080000). */
export class SqlCeremonyChallengeStore implements CeremonyChallengeStore {
  constructor(private readonly sql: Sql) {}

  async put(holder: string, userId: number, challenge: string, expiresAt: Date, now: Date): Promise<void> {
    // Each new ceremony sweeps the expired ones away: the table holds only ceremonies under way.
    await this.sql.count(
      `with expired as (delete from passkey_challenges where expires_at <= $5 and holder <> $1)
       insert into passkey_challenges (holder, user_id, challenge, expires_at) values ($1, $2, $3, $4)
       on conflict (holder) do update set user_id = excluded.user_id, challenge = excluded.challenge,
         expires_at = excluded.expires_at`,
      [holder, userId, challenge, expiresAt, now],
    );
  }

  async take(holder: string, userId: number, now: Date): Promise<string | null> {
    // One statement: of two answers sent at once, only one gets the challenge.
    const row = await this.sql.one<{ challenge: string; live: boolean }>(
      `delete from passkey_challenges where holder = $1 and user_id = $2 returning challenge, expires_at > $3 as live`,
      [holder, userId, now],
    );
    return row?.live ? row.challenge : null;
  }
}
