import { type DomainEvent, WEBHOOK_EVENTS } from '../../domain/events.js';
import type { InTransactionConsumer } from '../../application/events.js';
import type { Sql } from './sql.js';
import { queueTries } from './webhook-store.js';

/** What the outbox keeps of an event: ids and dates, not titles and bodies (consumers read those when they need them). */
export function outboxPayload(event: DomainEvent): Record<string, unknown> {
  const {
    type: _type,
    bodyHtml: _bodyHtml,
    title: _title,
    ...kept
  } = event as DomainEvent & { bodyHtml?: string; title?: string };
  return kept;
}

/**
 * Writes events to the `events` table in the transaction of the change: a rolled-back change leaves no event.
 * No NOTIFY: a transaction that notifies takes PostgreSQL's one notification-queue lock at commit, so every
 * writing transaction would commit one after the other; measured on reply create at c=32 (bench:ab), that cost
 * 11–18 % of the throughput, and nothing without it. Processes poll the log instead (event-feed.ts). Inside a
 * transaction the events wait for its end (`flush`, which the unit of work calls just before committing) and
 * go in one statement, whatever their number: a reply that notifies ten users costs one
 * statement, not two. Outside a transaction (a read that marks notifications read), each is written at once.
 *
 * The same statement makes the webhook deliveries of these events (contract §13), one per event and subscribed
 * webhook, and queues each one's first try: sent for a committed change only, and never lost after the commit.
 * With no webhook subscribed it costs a join with an empty table, and queues nothing (so notifies no worker).
 */
export class SqlOutbox implements InTransactionConsumer {
  private readonly pending = new WeakMap<object, DomainEvent[]>();

  constructor(private readonly sql: Sql) {}

  async handle(event: DomainEvent): Promise<void> {
    const transaction = this.sql.transaction();
    if (!transaction) return this.write([event]);
    const events = this.pending.get(transaction);
    if (events) events.push(event);
    else this.pending.set(transaction, [event]);
  }

  /** Writes what the current transaction recorded. */
  async flush(): Promise<void> {
    const transaction = this.sql.transaction();
    const events = transaction && this.pending.get(transaction);
    if (!events) return;
    this.pending.delete(transaction);
    await this.write(events);
  }

  private async write(events: readonly DomainEvent[]): Promise<void> {
    await this.sql.all(
      `with stored as (
         insert into events (type, payload) select * from unnest($1::text[], $2::jsonb[]) returning id, type, payload),
       deliveries as (
         insert into webhook_deliveries (id, webhook_id, event_id, event, payload)
         select gen_random_uuid(), w.id, e.id, e.type, e.payload
         from stored e join webhooks w on e.type = any(w.events) or ('*' = any(w.events) and e.type = any($3::text[]))
         returning id),
       queued as (${queueTries('deliveries')})
       select (select count(*) from stored) as events, (select count(*) from queued) as deliveries`,
      [events.map((event) => event.type), events.map((event) => JSON.stringify(outboxPayload(event))), WEBHOOK_EVENTS],
    );
  }
}
