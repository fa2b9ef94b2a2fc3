import { Migration } from '@mikro-orm/migrations';

/**
 * Where an imported member starts reading (contract §22, §20): homeland kept no read state we can bring, so an import
 * starts each member it brings with every topic read up to it, as one row per member (the last topic and reply the
 * import brought, and when), not one per member and topic: a topic at or below the horizon with no mark of its own
 * reads as read up to the horizon's reply. A mark of -1 is a topic below the horizon that its reader marked unread
 * ("as if never opened"). Expand only: the previous release runs beside it, and never reads it.
 */
export class Migration20261129020000_read_horizons extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table read_horizons (
        user_id integer primary key references users (id) on delete cascade,
        topic_id integer not null,
        reply_id integer not null,
        read_at timestamptz not null
      );`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table read_horizons;');
  }
}
