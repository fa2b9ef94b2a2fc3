import { Migration } from '@mikro-orm/migrations';

/**
 * Passkeys (contract §25). `passkeys`: a person's WebAuthn credentials, each with the public key the authenticator
 * made (base64url; nothing secret), its signature counter, the transports the browser named, the name its owner gave
 * it, and when it was made and last used; a credential id belongs to one account. `passkey_challenges`: the
 * challenge of a ceremony under way, held by one browser (the digest of its session or pending sign-in) for one
 * account, for five minutes, deleted by the answer that uses it. New tables only: the release before never reads them.
 */
export class Migration20261129080000_passkeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table passkeys (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        credential_id text not null unique,
        public_key text not null,
        sign_count bigint not null default 0,
        transports text[] not null default '{}',
        name varchar(60) not null,
        created_at timestamptz(3) not null,
        last_used_at timestamptz(3)
      );
      create index passkeys_by_user on passkeys (user_id);

      create table passkey_challenges (
        holder char(64) primary key,
        user_id integer not null references users (id) on delete cascade,
        challenge text not null,
        expires_at timestamptz(3) not null
      );
      create index passkey_challenges_expiry on passkey_challenges (expires_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table passkey_challenges; drop table passkeys;');
  }
}
