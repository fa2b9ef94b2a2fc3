import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import type { Scope } from '../../../application/tokens/scopes.js';
import type { PersonalToken, PersonalTokenStore } from '../../../application/tokens/personal-tokens.js';

/**
 * Personal tokens: the rows of oauth_tokens with a name (Migration20261129050000_personal_tokens), so that the one
 * bearer lookup and every sign-out take them as they take the others. One that never expires is stored with
 * `expires_at = 'infinity'` and read back as null.
 */

interface Row {
  id: number;
  name: string;
  scope: Scope;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
}

const COLUMNS = `id, name, scope, created_at, last_used_at, nullif(expires_at, 'infinity') as expires_at`;

const personalToken = (row: Row): PersonalToken => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  createdAt: toDate(row.created_at),
  lastUsedAt: toDate(row.last_used_at),
  expiresAt: toDate(row.expires_at),
});

export class SqlPersonalTokenStore implements PersonalTokenStore {
  constructor(private readonly sql: Sql) {}

  async add(token: {
    userId: number;
    name: string;
    scope: Scope;
    accessDigest: string;
    expiresAt: Date | null;
    createdAt: Date;
  }): Promise<PersonalToken> {
    const row = await this.sql.one<Row>(
      `insert into oauth_tokens (access_digest, user_id, name, scope, expires_at, created_at)
       values ($1, $2, $3, $4, coalesce($5::timestamptz, 'infinity'), $6)
       returning ${COLUMNS}`,
      [token.accessDigest, token.userId, token.name, token.scope, token.expiresAt, token.createdAt],
    );
    return personalToken(row!);
  }

  async liveFor(userId: number, now: Date): Promise<PersonalToken[]> {
    const rows = await this.sql.all<Row>(
      `select ${COLUMNS} from oauth_tokens
       where user_id = $1 and name is not null and revoked_at is null and expires_at > $2
       order by id desc`,
      [userId, now],
    );
    return rows.map(personalToken);
  }

  async countLiveFor(userId: number, now: Date): Promise<number> {
    const row = await this.sql.one<{ count: number }>(
      `select count(*)::int as count from oauth_tokens
       where user_id = $1 and name is not null and revoked_at is null and expires_at > $2`,
      [userId, now],
    );
    return row?.count ?? 0;
  }

  async revoke(userId: number, id: number, now: Date): Promise<boolean> {
    const revoked = await this.sql.count(
      `update oauth_tokens set revoked_at = $3
       where id = $2 and user_id = $1 and name is not null and revoked_at is null and expires_at > $3`,
      [userId, id, now],
    );
    return revoked > 0;
  }
}
