import { Migration } from '@mikro-orm/migrations';

/**
 * OAuth token lifecycle: refresh tokens expire on their own clock; expired and revoked tokens can be purged by
 * expiry; failed password grants are counted in a table shared by every server process (rate-limiter-flexible's
 * PostgreSQL layout).
 */
export class Migration20261122000000_oauth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table oauth_tokens add column refresh_expires_at timestamptz(3);
      create index oauth_tokens_expires_idx on oauth_tokens (expires_at);
      create table login_throttle (
        key varchar(255) primary key,
        points integer not null default 0,
        expire bigint
      );
    `);
  }
}
