import type { AccountTokenRow, AccountTokenStore } from '../../../application/accounts/account-tokens.js';
import type { MailTokenPurpose } from '../../../domain/events.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

interface Row {
  id: string;
  user_id: number;
  purpose: MailTokenPurpose;
  email: string | null;
}

const row = (r: Row): AccountTokenRow => ({ id: r.id, userId: r.user_id, purpose: r.purpose, email: r.email });

export class SqlAccountTokenStore implements AccountTokenStore {
  constructor(private readonly sql: Sql) {}

  async add(token: AccountTokenRow & { digest: string; expiresAt: Date; createdAt: Date }): Promise<void> {
    await this.sql.all(
      `insert into account_tokens (id, user_id, purpose, digest, email, expires_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [token.id, token.userId, token.purpose, token.digest, token.email, token.expiresAt, token.createdAt],
    );
  }

  async take(digest: string, purposes: readonly MailTokenPurpose[], now: Date): Promise<AccountTokenRow | null> {
    const rows = await this.sql.all<Row>(
      `update account_tokens set used_at = $3
       where digest = $1 and purpose = any($2) and used_at is null and expires_at > $3
       returning id, user_id, purpose, email`,
      [digest, purposes, now],
    );
    return rows[0] ? row(rows[0]) : null;
  }

  async peek(digest: string, purposes: readonly MailTokenPurpose[], now: Date): Promise<AccountTokenRow | null> {
    const rows = await this.sql.all<Row>(
      `select id, user_id, purpose, email from account_tokens
       where digest = $1 and purpose = any($2) and used_at is null and expires_at > $3`,
      [digest, purposes, now],
    );
    return rows[0] ? row(rows[0]) : null;
  }

  async spent(digest: string, purposes: readonly MailTokenPurpose[]): Promise<AccountTokenRow | null> {
    const rows = await this.sql.all<Row>(
      `select id, user_id, purpose, email from account_tokens
       where digest = $1 and purpose = any($2) and used_at is not null`,
      [digest, purposes],
    );
    return rows[0] ? row(rows[0]) : null;
  }

  async lastIssuedAt(userId: number, purpose: MailTokenPurpose): Promise<Date | null> {
    const rows = await this.sql.all<{ created_at: Timestamp }>(
      'select created_at from account_tokens where user_id = $1 and purpose = $2 order by created_at desc limit 1',
      [userId, purpose],
    );
    return rows[0] ? toDate(rows[0].created_at) : null;
  }

  async spendAll(userId: number, purposes: readonly MailTokenPurpose[], now: Date): Promise<void> {
    await this.sql.all('update account_tokens set used_at = $3 where user_id = $1 and purpose = any($2) and used_at is null', [
      userId,
      purposes,
      now,
    ]);
  }
}
