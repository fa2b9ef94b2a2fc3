import { Migration } from '@mikro-orm/migrations';

/**
 * Digests (contract §17): when each user was last seen (an authenticated request or a sign-in, recorded to the
 * hour: SqlPresence) and when the last digest was queued for them. Expand only.
 *
 * Existing accounts count as seen now: nobody knows when they were last here, and "never" would mail every one
 * of them a digest at the first run after the upgrade, people on the site that very hour included. So the first
 * digests go out one period after the upgrade. New accounts are seen when they are made (signing up is a visit).
 */
export class Migration20261126070000_digests extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table users
        add column last_seen_at timestamptz(3) not null default now(),
        add column digest_sent_at timestamptz(3);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table users drop column digest_sent_at, drop column last_seen_at;');
  }
}
