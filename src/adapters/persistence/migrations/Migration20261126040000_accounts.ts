import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts people own (contract §16b, §17): an account's state (unverified until its address is confirmed,
 * pending while an administrator has to approve it), the language its mail is written in, the tokens mail links
 * carry (their digests; the tokens are derived under the server's key, MailTokenKeys) and invites.
 *
 * Expand only: every existing account is active, as the contract says of accounts made before this.
 */
export class Migration20261126040000_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table users
        add column state varchar(16) not null default 'active' check (state in ('unverified', 'pending', 'active')),
        add column locale varchar(8) not null default 'en' check (locale in ('en', 'zh-CN'));
      create index users_pending_idx on users (created_at, id) where state = 'pending';

      create table account_tokens (
        id varchar(32) primary key,
        user_id integer not null references users (id) on delete cascade,
        purpose varchar(16) not null check (purpose in ('verify', 'reset', 'email_change')),
        digest varchar(64) not null,
        email varchar(255),
        expires_at timestamptz(3) not null,
        used_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );
      create unique index account_tokens_digest_key on account_tokens (digest);
      create index account_tokens_user_idx on account_tokens (user_id, purpose, created_at desc);

      create table invites (
        id serial primary key,
        digest varchar(64) not null,
        max_uses integer not null check (max_uses > 0),
        uses integer not null default 0,
        expires_at timestamptz(3),
        revoked_at timestamptz(3),
        created_by_id integer not null references users (id),
        created_at timestamptz(3) not null default now()
      );
      create unique index invites_digest_key on invites (digest);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table invites;
      drop table account_tokens;
      drop index users_pending_idx;
      alter table users drop column locale, drop column state;
    `);
  }
}
