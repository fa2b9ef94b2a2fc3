import { Migration } from '@mikro-orm/migrations';

/**
 * One store for every throttle's counts (issue 43): failed sign-ins, the account actions that send mail and the API's
 * requests, counted by their keys' digests, each key in a window that its first count starts. `login_throttle` and
 * `rate_limit_counts` are no longer written; they stay until a later release drops them, so that a process of the
 * release before, still running during a rolling upgrade, keeps working (its counts are its own meanwhile).
 */
export class Migration20261128050000_throttle_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table throttle_counts (
        key text primary key,
        count integer not null,
        ends_at timestamptz(3) not null
      );
      create index throttle_counts_ends_idx on throttle_counts (ends_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table throttle_counts;');
  }
}
