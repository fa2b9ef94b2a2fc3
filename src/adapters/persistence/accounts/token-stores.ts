import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import type { ActingUser } from '../../../application/actor.js';
import type {
  AccessTokenStore,
  Caller,
  RefreshGrant,
  TokenDescription,
  TokenRecord,
  TokenSummary,
} from '../../../application/tokens/access-tokens.js';
import type { Scope } from '../../../application/tokens/scopes.js';
import type { AuthorizationCodeStore, StoredAuthorizationCode } from '../../../application/oauth/authorization-codes.js';
import type { WebSessionStore } from '../../../application/oauth/web-sessions.js';
import type { Role } from '../../../domain/users/role.js';

/**
 * Tokens, authorization codes and sign-in sessions, each stored by the SHA-256 digest of its secret: the
 * database never holds anything that would let its reader act as a user.
 */

/**
 * A token is live while its access token or its refresh token still works. A personal token that never expires
 * has `expires_at = 'infinity'` (personal-token-store.ts): live by the same test, and read back as null.
 */
const LIVE = `t.revoked_at is null
  and (t.expires_at > $2 or (t.refresh_digest is not null and (t.refresh_expires_at is null or t.refresh_expires_at > $2)))`;

export class SqlAccessTokenStore implements AccessTokenStore {
  constructor(private readonly sql: Sql) {}

  async add(record: TokenRecord): Promise<void> {
    await this.sql.all(
      `insert into oauth_tokens (access_digest, refresh_digest, user_id, client_id, scope, expires_at, refresh_expires_at, created_at,
         family_id, code_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, nextval('oauth_token_families')), $10)`,
      [
        record.accessDigest,
        record.refreshDigest,
        record.userId,
        record.clientId,
        record.scope,
        record.expiresAt,
        record.refreshExpiresAt,
        record.createdAt,
        record.familyId,
        record.codeId,
      ],
    );
  }

  async callerForAccessDigest(digest: string, now: Date): Promise<Caller | null> {
    const row = await this.sql.one<{ id: number; login: string; role: Role; scope: Scope }>(
      `select u.id, u.login, u.role, t.scope from oauth_tokens t join users u on u.id = t.user_id
       where t.access_digest = $1 and t.revoked_at is null and t.expires_at > $2`,
      [digest, now],
    );
    return row ? { user: { id: row.id, login: row.login, role: row.role }, scope: row.scope } : null;
  }

  async refreshGrant(digest: string, now: Date): Promise<RefreshGrant | null> {
    const row = await this.sql.one<{
      user_id: number;
      client_id: number | null;
      scope: Scope;
      refresh_expires_at: Timestamp | null;
      family_id: string;
    }>(
      `select user_id, client_id, scope, refresh_expires_at, family_id from oauth_tokens
       where refresh_digest = $1 and revoked_at is null and user_id is not null
         and (refresh_expires_at is null or refresh_expires_at > $2)`,
      [digest, now],
    );
    if (!row) return null;
    return {
      userId: row.user_id,
      clientId: row.client_id,
      scope: row.scope,
      refreshExpiresAt: toDate(row.refresh_expires_at),
      familyId: Number(row.family_id),
    };
  }

  async describe(digest: string, now: Date): Promise<TokenDescription | null> {
    const row = await this.sql.one<{
      kind: 'access' | 'refresh';
      scope: Scope;
      user_id: number | null;
      login: string | null;
      client_uid: string | null;
      expires_at: Timestamp | null;
      created_at: Timestamp;
    }>(
      `select case when t.access_digest = $1 then 'access' else 'refresh' end as kind, t.scope, t.user_id, u.login,
         c.uid as client_uid,
         nullif(case when t.access_digest = $1 then t.expires_at else t.refresh_expires_at end, 'infinity') as expires_at,
         t.created_at
       from oauth_tokens t left join users u on u.id = t.user_id left join oauth_clients c on c.id = t.client_id
       where t.revoked_at is null
         and ((t.access_digest = $1 and t.expires_at > $2)
           or (t.refresh_digest = $1 and (t.refresh_expires_at is null or t.refresh_expires_at > $2)))`,
      [digest, now],
    );
    if (!row) return null;
    return {
      kind: row.kind,
      scope: row.scope,
      userId: row.user_id,
      login: row.login,
      clientUid: row.client_uid,
      expiresAt: toDate(row.expires_at),
      createdAt: toDate(row.created_at),
    };
  }

  async revoke(digest: string, now: Date): Promise<{ id: number; userId: number } | null> {
    const row = await this.sql.one<{ id: number; user_id: number }>(
      `update oauth_tokens set revoked_at = $1 where (access_digest = $2 or refresh_digest = $2) and revoked_at is null
       returning id, user_id`,
      [now, digest],
    );
    return row ? { id: row.id, userId: row.user_id } : null;
  }

  revokeFamilyOfRevokedRefresh(digest: string, now: Date): Promise<number> {
    return this.sql.count(
      `update oauth_tokens set revoked_at = $2
       where revoked_at is null
         and family_id = (select family_id from oauth_tokens where refresh_digest = $1 and revoked_at is not null)`,
      [digest, now],
    );
  }

  revokeFamiliesOfCode(codeId: number, now: Date): Promise<number> {
    return this.sql.count(
      `update oauth_tokens set revoked_at = $2
       where revoked_at is null and family_id in (select family_id from oauth_tokens where code_id = $1)`,
      [codeId, now],
    );
  }

  async liveFor(userId: number, now: Date): Promise<TokenSummary[]> {
    const rows = await this.sql.all<{
      id: number;
      client_name: string | null;
      name: string | null;
      scope: Scope;
      created_at: Timestamp;
      expires_at: Timestamp | null;
      refresh_expires_at: Timestamp | null;
    }>(
      `select t.id, c.name as client_name, t.name, t.scope, t.created_at, nullif(t.expires_at, 'infinity') as expires_at,
         t.refresh_expires_at
       from oauth_tokens t left join oauth_clients c on c.id = t.client_id
       where t.user_id = $1 and ${LIVE}
       order by t.created_at desc, t.id desc`,
      [userId, now],
    );
    return rows.map((row) => ({
      id: row.id,
      clientName: row.client_name,
      name: row.name,
      scope: row.scope,
      createdAt: toDate(row.created_at),
      expiresAt: toDate(row.expires_at),
      refreshExpiresAt: toDate(row.refresh_expires_at),
    }));
  }

  revokeAllFor(userId: number, now: Date, exceptAccessDigest?: string): Promise<number> {
    return this.sql.count(
      `update oauth_tokens t set revoked_at = $2
       where t.user_id = $1 and ${LIVE} and ($3::text is null or t.access_digest <> $3)`,
      [userId, now, exceptAccessDigest ?? null],
    );
  }

  purge(now: Date): Promise<number> {
    return this.sql.count(
      `delete from oauth_tokens
       where revoked_at is not null
          or (expires_at <= $1 and (refresh_digest is null or refresh_expires_at <= $1))`,
      [now],
    );
  }
}

export class SqlAuthorizationCodeStore implements AuthorizationCodeStore {
  constructor(private readonly sql: Sql) {}

  async add(code: Omit<StoredAuthorizationCode, 'id' | 'usedAt'> & { digest: string; createdAt: Date }): Promise<void> {
    await this.sql.all(
      `insert into oauth_codes (code_digest, client_id, user_id, redirect_uri, code_challenge, scope, expires_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [code.digest, code.clientId, code.userId, code.redirectUri, code.codeChallenge, code.scope, code.expiresAt, code.createdAt],
    );
  }

  async byDigest(digest: string): Promise<StoredAuthorizationCode | null> {
    const row = await this.sql.one<{
      id: number;
      client_id: number;
      user_id: number;
      redirect_uri: string;
      code_challenge: string;
      scope: Scope;
      expires_at: Timestamp;
      used_at: Timestamp | null;
    }>(
      `select id, client_id, user_id, redirect_uri, code_challenge, scope, expires_at, used_at from oauth_codes
       where code_digest = $1`,
      [digest],
    );
    if (!row) return null;
    return {
      id: row.id,
      clientId: row.client_id,
      userId: row.user_id,
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
      scope: row.scope,
      expiresAt: toDate(row.expires_at),
      usedAt: toDate(row.used_at),
    };
  }

  async consume(id: number, now: Date): Promise<boolean> {
    return (await this.sql.count('update oauth_codes set used_at = $2 where id = $1 and used_at is null', [id, now])) > 0;
  }

  purge(before: Date): Promise<number> {
    return this.sql.count('delete from oauth_codes where expires_at < $1', [before]);
  }
}

export class SqlWebSessionStore implements WebSessionStore {
  constructor(private readonly sql: Sql) {}

  async add(session: { digest: string; userId: number; expiresAt: Date; createdAt: Date }): Promise<void> {
    await this.sql.all('insert into web_sessions (digest, user_id, expires_at, created_at) values ($1, $2, $3, $4)', [
      session.digest,
      session.userId,
      session.expiresAt,
      session.createdAt,
    ]);
  }

  userFor(digest: string, now: Date): Promise<ActingUser | null> {
    return this.sql.one<ActingUser>(
      `select u.id, u.login, u.role from web_sessions s join users u on u.id = s.user_id
       where s.digest = $1 and s.expires_at > $2`,
      [digest, now],
    );
  }

  async remove(digest: string): Promise<void> {
    await this.sql.count('delete from web_sessions where digest = $1', [digest]);
  }

  removeAllFor(userId: number): Promise<number> {
    return this.sql.count('delete from web_sessions where user_id = $1', [userId]);
  }

  purge(now: Date): Promise<number> {
    return this.sql.count('delete from web_sessions where expires_at <= $1', [now]);
  }
}
