import { Migration } from '@mikro-orm/migrations';

/**
 * A node in no section reports homeland's section 1, "Nodes" (contract §5, §16a): so no section made here takes id 1,
 * or an id would name two sections. The sections' ids start at 2; a section that took 1 before moves past the others,
 * its nodes with it.
 */
export class Migration20261128060000_section_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      do $$
      declare
        next_id integer := coalesce((select max(id) from sections), 1) + 1;
      begin
        if exists (select 1 from sections where id = 1) then
          alter table nodes drop constraint nodes_section_id_fkey;
          update nodes set section_id = next_id where section_id = 1;
          update sections set id = next_id where id = 1;
          alter table nodes add constraint nodes_section_id_fkey foreign key (section_id) references sections (id);
          next_id := next_id + 1;
        end if;
        execute format('alter sequence sections_id_seq minvalue 2 start 2 restart with %s', next_id);
      end $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter sequence sections_id_seq minvalue 1 start 1;');
  }
}
