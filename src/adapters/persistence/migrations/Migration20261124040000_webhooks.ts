import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks (contract §13): subscriptions, one delivery per event and subscription (created in the transaction of
 * the change, with the event), and every attempt at it. The job that drives a delivery's tries lives in
 * graphile-worker's own schema, installed by `migrate()` after these migrations.
 */
export class Migration20261124040000_webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhooks (
        id serial primary key,
        url text not null,
        events text[] not null,
        -- Kept as is: signing needs it. Shown once, when forumctl makes it up.
        secret text not null,
        created_at timestamptz not null default now()
      );
    `);
    this.addSql(`
      create table webhook_deliveries (
        id uuid primary key,
        webhook_id integer not null references webhooks (id) on delete cascade,
        event_id bigint not null,
        event text not null,
        payload jsonb not null,
        -- The API's view of the subject, taken at the first attempt and sent unchanged by every retry.
        data jsonb,
        status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
        created_at timestamptz not null default now(),
        completed_at timestamptz
      );
    `);
    this.addSql('create index webhook_deliveries_by_webhook on webhook_deliveries (webhook_id, created_at desc);');
    this.addSql(`
      create table webhook_attempts (
        id bigserial primary key,
        delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
        attempted_at timestamptz not null,
        status_code integer,
        error text,
        duration_ms integer not null
      );
    `);
    this.addSql('create index webhook_attempts_by_delivery on webhook_attempts (delivery_id, id);');
  }

  override async down(): Promise<void> {
    this.addSql('drop table webhook_attempts; drop table webhook_deliveries; drop table webhooks;');
  }
}
