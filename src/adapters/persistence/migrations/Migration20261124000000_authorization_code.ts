import { Migration } from '@mikro-orm/migrations';

/**
 * The authorization code grant (contract §10): client applications may be public (no secret) and register
 * several redirect URIs; authorization codes (stored as digests, with their PKCE challenge) work once; and the
 * sign-in page keeps browser sessions, in the database like everything every process must see.
 */
export class Migration20261124000000_authorization_code extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table oauth_clients add column public boolean not null default false;
      alter table oauth_clients add column redirect_uris text[] not null default '{}';
      update oauth_clients set redirect_uris = array[redirect_uri] where redirect_uri is not null;
      alter table oauth_clients drop column redirect_uri;
      alter table oauth_clients alter column secret_digest drop not null;

      create table oauth_codes (
        id serial primary key,
        code_digest char(64) not null unique,
        client_id integer not null references oauth_clients (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        redirect_uri text not null,
        code_challenge varchar(128) not null,
        scope varchar(64) not null,
        expires_at timestamptz(3) not null,
        used_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );
      create index oauth_codes_expires_idx on oauth_codes (expires_at);
      -- What a code was exchanged for: a replayed code revokes it (RFC 6749 §4.1.2).
      alter table oauth_tokens add column code_id integer references oauth_codes (id) on delete set null;
      create index oauth_tokens_code_idx on oauth_tokens (code_id) where code_id is not null;

      create table web_sessions (
        id serial primary key,
        digest char(64) not null unique,
        user_id integer not null references users (id) on delete cascade,
        expires_at timestamptz(3) not null,
        created_at timestamptz(3) not null default now()
      );
      create index web_sessions_user_idx on web_sessions (user_id);
    `);
  }
}
