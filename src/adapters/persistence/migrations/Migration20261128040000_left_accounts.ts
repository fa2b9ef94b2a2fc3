import { Migration } from '@mikro-orm/migrations';

/**
 * An account that left (contract §16c) says so by its state, `left`, rather than by the shape of its placeholder
 * address (issue 43): readers ask the state, and the homeland import writes it.
 */
export class Migration20261128040000_left_accounts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table users drop constraint users_state_check;
      alter table users add constraint users_state_check check (state in ('unverified', 'pending', 'active', 'left'));
      update users set state = 'left' where email = 'deleted_' || id || '@deleted.invalid';
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      update users set state = 'active' where state = 'left';
      alter table users drop constraint users_state_check;
      alter table users add constraint users_state_check check (state in ('unverified', 'pending', 'active'));
    `);
  }
}
