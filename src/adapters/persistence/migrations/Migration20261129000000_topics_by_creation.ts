import { Migration } from '@mikro-orm/migrations';

/**
 * The topics by the time they were created (contract §21a's sitemap: topics by month): which months have a topic is
 * a probe per month, and a month's file one range of this index, rather than a scan of every topic. Not deleted
 * topics only, as the lists' indexes. Expand only: the previous release runs beside it.
 */
export class Migration20261129000000_topics_by_creation extends Migration {
  override async up(): Promise<void> {
    this.addSql('create index topics_created_idx on topics (created_at, id) where deleted_at is null;');
  }

  override async down(): Promise<void> {
    this.addSql('drop index topics_created_idx;');
  }
}
