import { Migration } from '@mikro-orm/migrations';

/**
 * The moderation audit log (contract §14). Append-only: a trigger refuses to update or delete an entry, so that
 * not even a bug in the service (or a careless script through it) can rewrite what was done.
 */
export class Migration20261124050000_audit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table audit_entries (
        id bigserial primary key,
        action text not null,
        actor_id integer not null references users (id),
        target_type text not null,
        target_id bigint not null,
        changes jsonb not null default '{}',
        reason text,
        created_at timestamptz not null default now()
      );
    `);
    this.addSql('create index audit_entries_by_action on audit_entries (action, id desc);');
    this.addSql('create index audit_entries_by_actor on audit_entries (actor_id, id desc);');
    this.addSql('create index audit_entries_by_target on audit_entries (target_type, target_id, id desc);');
    this.addSql(`
      create function audit_entries_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'the audit log is append-only: its entries are never updated or deleted'
          using errcode = 'insufficient_privilege';
      end $$;
    `);
    this.addSql(`
      create trigger audit_entries_append_only before update or delete on audit_entries
        for each row execute function audit_entries_append_only();
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table audit_entries; drop function audit_entries_append_only();');
  }
}
