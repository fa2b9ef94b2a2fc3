import { Migration } from '@mikro-orm/migrations';

/**
 * Where each reader left off (contract §22): a row per user and topic they opened, with the last reply they were
 * shown (null: none yet). Narrow (three integers), keyed by user first (a user's unread topics are one range of the
 * key), and written only when its mark moves forward. Room on each page (fillfactor) so that a moved mark, whose
 * column no index holds, is rewritten in place. No index by topic: topics are deleted softly, so the cascade from
 * a topic runs only where a test or an operator removes rows by hand. Expand only: the previous release runs beside it.
 */
export class Migration20261129010000_read_state extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table topic_reads (
        user_id integer not null references users (id) on delete cascade,
        topic_id integer not null references topics (id) on delete cascade,
        last_read_reply_id integer,
        primary key (user_id, topic_id)
      ) with (fillfactor = 90);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table topic_reads;');
  }
}
