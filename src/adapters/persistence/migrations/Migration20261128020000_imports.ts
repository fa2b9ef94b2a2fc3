import { Migration } from '@mikro-orm/migrations';

/**
 * The runs of `forumctl import homeland` (contract §20): a later run knows it is one (the database then holds more
 * than the built-ins, and that is expected), and each run's report stays for whoever asks what came from where.
 */
export class Migration20261128020000_imports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table import_runs (
        id serial primary key,
        source varchar(32) not null,
        finished_at timestamptz(3) not null default now(),
        report jsonb not null
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table import_runs;');
  }
}
