import type { RemovedSecondFactors, SecondFactorStore, StoredTotp } from '../../../application/second-factors/ports.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

/**
 * Second factors in `user_totp` and `recovery_codes` (migration 20261129060000); whether any is on, and removing
 * them all, take `passkeys` in too (migration 20261129080000: PasskeyStore keeps them).
 */
export class SqlSecondFactorStore implements SecondFactorStore {
  constructor(private readonly sql: Sql) {}

  async totpOf(userId: number): Promise<StoredTotp | null> {
    const row = await this.sql.one<{ sealed_secret: string; confirmed_at: Timestamp | null; last_step: string | null }>(
      'select sealed_secret, confirmed_at, last_step from user_totp where user_id = $1',
      [userId],
    );
    if (!row) return null;
    return {
      sealedSecret: row.sealed_secret,
      confirmedAt: toDate(row.confirmed_at),
      lastStep: row.last_step === null ? null : Number(row.last_step),
    };
  }

  async isOn(userId: number): Promise<boolean> {
    const row = await this.sql.one<{ on: boolean }>(
      `select exists (select 1 from user_totp where user_id = $1 and confirmed_at is not null)
           or exists (select 1 from passkeys where user_id = $1) as on`,
      [userId],
    );
    return row?.on === true;
  }

  async startTotp(userId: number, sealedSecret: string, at: Date): Promise<void> {
    await this.sql.count(
      `insert into user_totp (user_id, sealed_secret, created_at) values ($1, $2, $3)
       on conflict (user_id) do update set sealed_secret = excluded.sealed_secret, created_at = excluded.created_at
       where user_totp.confirmed_at is null`,
      [userId, sealedSecret, at],
    );
  }

  async confirmTotp(userId: number, step: number, at: Date): Promise<boolean> {
    const changed = await this.sql.count(
      'update user_totp set confirmed_at = $2, last_step = $3 where user_id = $1 and confirmed_at is null',
      [userId, at, step],
    );
    return changed === 1;
  }

  async acceptStep(userId: number, step: number): Promise<boolean> {
    const changed = await this.sql.count(
      `update user_totp set last_step = $2
       where user_id = $1 and confirmed_at is not null and (last_step is null or last_step < $2)`,
      [userId, step],
    );
    return changed === 1;
  }

  async replaceRecoveryCodes(userId: number, digests: readonly string[], at: Date): Promise<void> {
    await this.sql.count(
      `with gone as (delete from recovery_codes where user_id = $1)
       insert into recovery_codes (user_id, digest, created_at) select $1, d, $3 from unnest($2::text[]) as d`,
      [userId, digests, at],
    );
  }

  async useRecoveryCode(userId: number, digest: string, at: Date): Promise<number | null> {
    const row = await this.sql.one<{ left: number }>(
      `with used as (
         update recovery_codes set used_at = $3 where user_id = $1 and digest = $2 and used_at is null returning id
       )
       select (select count(*) from recovery_codes where user_id = $1 and used_at is null)::int - 1 as left
       where exists (select 1 from used)`,
      [userId, digest, at],
    );
    return row ? row.left : null;
  }

  async unusedRecoveryCodes(userId: number): Promise<number> {
    const row = await this.sql.one<{ left: number }>(
      'select count(*)::int as left from recovery_codes where user_id = $1 and used_at is null',
      [userId],
    );
    return row?.left ?? 0;
  }

  async removeAll(userId: number): Promise<RemovedSecondFactors> {
    const row = await this.sql.one<{ totp: boolean; passkeys: number }>(
      `with codes as (delete from recovery_codes where user_id = $1),
            totp as (delete from user_totp where user_id = $1 returning confirmed_at),
            keys as (delete from passkeys where user_id = $1 returning id)
       select exists (select 1 from totp where confirmed_at is not null) as totp, (select count(*)::int from keys) as passkeys`,
      [userId],
    );
    return { totp: row?.totp === true, passkeys: row?.passkeys ?? 0 };
  }
}
