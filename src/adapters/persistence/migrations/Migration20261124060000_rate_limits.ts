import { Migration } from '@mikro-orm/migrations';

/**
 * Request counts per key and one-minute window, shared by every process (src/adapters/http/window-limiter.ts).
 * Unlogged: no write-ahead log for counts that matter for a minute (a crash empties the table, which at worst
 * forgives a minute of requests).
 */
export class Migration20261124060000_rate_limits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create unlogged table rate_limit_counts (
        key text not null,
        window_start bigint not null,
        count integer not null,
        primary key (key, window_start)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table rate_limit_counts;');
  }
}
