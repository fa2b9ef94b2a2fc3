import type { PendingSignInStore } from '../../../application/second-factors/ports.js';
import type { Sql } from '../database/sql.js';

/** Pending sign-ins in `pending_sign_ins` (migration 20261129060000), by their secret's digest. */
export class SqlPendingSignInStore implements PendingSignInStore {
  constructor(private readonly sql: Sql) {}

  async add(pending: { digest: string; userId: number; continueTo: string; expiresAt: Date }): Promise<void> {
    await this.sql.count('insert into pending_sign_ins (digest, user_id, continue_to, expires_at) values ($1, $2, $3, $4)', [
      pending.digest,
      pending.userId,
      pending.continueTo,
      pending.expiresAt,
    ]);
  }

  async find(digest: string, now: Date): Promise<{ userId: number; continueTo: string } | null> {
    const row = await this.sql.one<{ user_id: number; continue_to: string }>(
      'select user_id, continue_to from pending_sign_ins where digest = $1 and expires_at > $2',
      [digest, now],
    );
    return row && { userId: row.user_id, continueTo: row.continue_to };
  }

  async remove(digest: string): Promise<void> {
    await this.sql.count('delete from pending_sign_ins where digest = $1', [digest]);
  }

  removeAllFor(userId: number): Promise<number> {
    return this.sql.count('delete from pending_sign_ins where user_id = $1', [userId]);
  }

  purge(now: Date): Promise<number> {
    return this.sql.count('delete from pending_sign_ins where expires_at <= $1', [now]);
  }
}
