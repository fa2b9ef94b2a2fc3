import { Migration } from '@mikro-orm/migrations';

/** `maintenance purge-notifications` walks notifications by age. */
export class Migration20261122010000_maintenance extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index notifications_created_idx on notifications (created_at);');
  }
}
