import { Migration } from '@mikro-orm/migrations';

/**
 * Personal access tokens (contract §25) are rows of oauth_tokens, so that the one bearer lookup, every way of
 * signing a user out (SignOutEverywhere), `forumctl tokens list|revoke-all` and the purge take them as they are.
 * A personal token is the row with a `name`: no client, no refresh token. `last_used_at` is kept to within a few
 * minutes (SqlPersonalTokenUse), never per request. One that never expires has `expires_at = 'infinity'`, so that
 * every statement that asks whether a token is live (`expires_at > now`) stays as it is.
 */
export class Migration20261129050000_personal_tokens extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table oauth_tokens add column name varchar(100);
      alter table oauth_tokens add column last_used_at timestamptz(3);
      alter table oauth_tokens add constraint oauth_tokens_personal_check
        check (name is null or (client_id is null and refresh_digest is null));
      create index oauth_tokens_personal_idx on oauth_tokens (user_id, id) where name is not null and revoked_at is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      delete from oauth_tokens where name is not null;
      drop index oauth_tokens_personal_idx;
      alter table oauth_tokens drop constraint oauth_tokens_personal_check;
      alter table oauth_tokens drop column last_used_at;
      alter table oauth_tokens drop column name;
    `);
  }
}
