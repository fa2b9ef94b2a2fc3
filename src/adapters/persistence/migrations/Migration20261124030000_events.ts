import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox (../shared/design/events.md): every domain event, written in the transaction of the change it
 * describes. Every process follows it from one connection (src/adapters/persistence/event-feed.ts). The payload
 * carries ids, not bodies.
 */
export class Migration20261124030000_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table events (
        id bigserial primary key,
        type text not null,
        payload jsonb not null,
        created_at timestamptz not null default now()
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table events;');
  }
}
