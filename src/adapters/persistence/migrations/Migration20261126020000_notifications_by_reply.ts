import { Migration } from '@mikro-orm/migrations';

/**
 * Deleting a reply deletes its notifications (`where reply_id = …`), which read every notification without an
 * index on the column: seconds at a few million. Building it holds writes to notifications back while it builds
 * (about a second a million rows).
 */
export class Migration20261126020000_notifications_by_reply extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index notifications_reply_idx on notifications (reply_id) where reply_id is not null;');
  }

  override async down(): Promise<void> {
    this.addSql('drop index notifications_reply_idx;');
  }
}
