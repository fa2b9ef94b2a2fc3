import { Migration } from '@mikro-orm/migrations';

/**
 * homeland's small features its clients show (contract §16a): sections that group nodes, pinned topics
 * (`suggested_at`), a public e-mail flag; and `grade` `ban`, which a ban sets (contract §6).
 *
 * Expand only, so the previous release runs beside it: new nullable or defaulted columns, a new table, a check
 * constraint that accepts more. The one update marks topics already banned (in NoPoint, node locked) with the grade
 * a ban now sets; the previous release shows that grade as it reads it, without knowing the word.
 */
export class Migration20261126030000_sections_pins_public_email extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sections (
        id serial primary key,
        name varchar(100) not null,
        sort integer not null default 0,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create unique index sections_name_key on sections (lower(name));
      alter table nodes add column section_id integer references sections (id);
      alter table topics add column suggested_at timestamptz(3);
      create index topics_suggested_idx on topics (suggested_at desc, id desc)
        where deleted_at is null and suggested_at is not null;
      alter table users add column email_public boolean not null default false;
      alter table topics drop constraint topics_grade_check;
      alter table topics add constraint topics_grade_check check (grade in ('normal', 'excellent', 'ban'));
      update topics set grade = 'ban'
        where lock_node and node_id = (select id from nodes where name = 'NoPoint') and grade <> 'ban';
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      update topics set grade = 'normal' where grade = 'ban';
      alter table topics drop constraint topics_grade_check;
      alter table topics add constraint topics_grade_check check (grade in ('normal', 'excellent'));
      alter table users drop column email_public;
      drop index topics_suggested_idx;
      alter table topics drop column suggested_at;
      alter table nodes drop column section_id;
      drop table sections;
    `);
  }
}
