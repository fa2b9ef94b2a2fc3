import { type DomainEvent, WEBHOOK_EVENTS } from '../../../../domain/events.js';
import { queueTries } from '../../webhook-store.js';
import type { StagedWriter } from '../staged.js';

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
 * The events (the outbox, the one writer of `events`), and the webhook deliveries they make (contract §13): one per
 * event and subscribed webhook, each with its first try queued. `notification.created` is written with the
 * notifications it names (notifications.ts), whose ids their own statement draws.
 */
export const outbox: StagedWriter = {
  name: 'outbox',
  write(staged, s) {
    const e = staged.events.filter((event) => event.type !== 'notification.created');
    if (e.length === 0) return;
    s.cte(
      'stored',
      `insert into events (type, payload)
    select * from unnest(${s.column(e, (x) => x.type, 'text[]')}, ${s.column(e, (x) => JSON.stringify(outboxPayload(x)), 'jsonb[]')})
    returning id, type, payload`,
    );
    s.cte(
      'deliveries',
      `insert into webhook_deliveries (id, webhook_id, event_id, event, payload)
    select gen_random_uuid(), w.id, e.id, e.type, e.payload
    from stored e join webhooks w on e.type = any(w.events) or ('*' = any(w.events) and e.type = any(${s.param(WEBHOOK_EVENTS, 'text[]')}))
    returning id`,
    );
    s.cte('queued', queueTries('deliveries'));
    s.mustRead('queued');
  },
};
