import { Migration } from '@mikro-orm/migrations';

/**
 * Uploads as records (contract §19): who uploaded which file, its original name, type, size, SHA-256 and dimensions.
 * A file is stored once, named by its SHA-256, whoever uploads it; each uploader has a record of their own (one per
 * uploader and file: the same bytes uploaded again give the same record). The records of a day per user are counted
 * for UPLOADS_PER_DAY; a file is looked up by its hash when a record goes (is it still named by another?).
 *
 * Expand only: a new table. Photos uploaded before it stay where they are (`photos/…` keys), served as before and
 * moved by `forumctl uploads migrate`, with no record (nobody knows who sent them).
 */
export class Migration20261128010000_uploads extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table uploads (
        id serial primary key,
        user_id integer not null references users (id),
        sha256 char(64) not null check (sha256 ~ '^[0-9a-f]{64}$'),
        name varchar(255),
        content_type varchar(32) not null,
        extension varchar(8) not null,
        byte_size integer not null check (byte_size > 0),
        width integer not null check (width > 0),
        height integer not null check (height > 0),
        created_at timestamptz(3) not null
      );
      create unique index uploads_user_file on uploads (user_id, sha256);
      create index uploads_file on uploads (sha256);
      create index uploads_user_recent on uploads (user_id, created_at desc, id desc);
      create index uploads_recent on uploads (created_at desc, id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table uploads;');
  }
}
