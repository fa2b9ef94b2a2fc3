import { Migration } from '@mikro-orm/migrations';

/**
 * Push-notification devices (`POST/DELETE /devices`), and replies per user and calendar month, kept with every
 * reply written or deleted, so that "the most active users" (`GET /users`: most replies in the last year) is a
 * small aggregate rather than a scan of a year of replies. Filled here from the replies already written.
 */
export class Migration20261123010000_devices_activity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table devices (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        platform varchar(16) not null check (platform in ('ios', 'android')),
        token varchar(255) not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        unique (platform, token)
      );
      create index devices_user_idx on devices (user_id);

      create table user_reply_months (
        user_id integer not null references users (id) on delete cascade,
        month date not null,
        replies integer not null default 0,
        primary key (user_id, month)
      );
      create index user_reply_months_month_idx on user_reply_months (month, user_id);
      insert into user_reply_months (user_id, month, replies)
        select user_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*)::int
        from replies where action is null and deleted_at is null group by 1, 2;
    `);
  }
}
