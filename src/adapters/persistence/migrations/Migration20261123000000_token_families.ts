import { Migration } from '@mikro-orm/migrations';

/**
 * Refresh-token families (RFC 9700 §4.14.2): every token issued by refreshing another one inherits its family;
 * a new sign-in starts one. When a rotated (revoked) refresh token is presented again, someone holds a copy of
 * it: the whole family is revoked, the live pair included.
 */
export class Migration20261123000000_token_families extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create sequence oauth_token_families;
      alter table oauth_tokens add column family_id bigint not null default nextval('oauth_token_families');
      create index oauth_tokens_family_idx on oauth_tokens (family_id) where revoked_at is null;
    `);
  }
}
