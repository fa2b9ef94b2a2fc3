import { Migration } from '@mikro-orm/migrations';

/**
 * Second factors (contract §25). `user_totp`: a person's authenticator, its secret sealed under the server's key
 * (SecretBox, never in clear), on once `confirmed_at` is set, and the last time step accepted (a code is never
 * accepted twice). `recovery_codes`: digests only, each spent by `used_at`. `pending_sign_ins`: browsers that gave
 * the right password and are asked for the code, by their secret's digest, for ten minutes. New tables only: the
 * release before never reads them.
 */
export class Migration20261129060000_second_factors extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table user_totp (
        user_id integer primary key references users (id) on delete cascade,
        sealed_secret text not null,
        confirmed_at timestamptz(3),
        last_step bigint,
        created_at timestamptz(3) not null
      );

      create table recovery_codes (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        digest char(64) not null,
        used_at timestamptz(3),
        created_at timestamptz(3) not null
      );
      create unique index recovery_codes_by_user on recovery_codes (user_id, digest);

      create table pending_sign_ins (
        digest char(64) primary key,
        user_id integer not null references users (id) on delete cascade,
        continue_to text not null,
        expires_at timestamptz(3) not null
      );
      create index pending_sign_ins_expiry on pending_sign_ins (expires_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table pending_sign_ins; drop table recovery_codes; drop table user_totp;');
  }
}
