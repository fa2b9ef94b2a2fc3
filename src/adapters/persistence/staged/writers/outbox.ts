import { type DomainEvent, WEBHOOK_EVENTS } from '../../../../domain/events.js';
import { queueTries } from '../../webhooks/webhook-store.js';
import { SIGNED_OUT, nodeCondition } from '../../read-models/visibility.js';
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

/** The topic an event `e` is about: a post's names its topic; a resolved review item, its item's post. */
const TOPIC_OF_EVENT = `coalesce((e.payload->>'topicId')::int, (
  select case when ri.target_type = 'Topic' then ri.target_id else (select rr.topic_id from replies rr where rr.id = ri.target_id) end
  from review_items ri where ri.id = (e.payload->>'itemId')::int))`;

/**
 * Whether the event `e` is about something everyone may read (contract §23): not a post in a node that only some may
 * read (the node the topic is in now). Only webhooks made with `--private-nodes` hear of the others.
 */
const EVERYONES = `not exists (select 1 from topics pt join nodes pn on pn.id = pt.node_id
  where pt.id = ${TOPIC_OF_EVENT} and not ${nodeCondition(SIGNED_OUT, 'pn')})`;

/**
 * Whether the event `e` is about no conversation (contract §24): no webhook hears of one, whatever it was made for
 * (a message's own events are no webhook's; a flag on one is an event of the review queue).
 */
const NO_CONVERSATION = `not exists (select 1 from topics ct where ct.id = ${TOPIC_OF_EVENT} and ct.node_id is null)`;

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
    from stored e join webhooks w on (e.type = any(w.events) or ('*' = any(w.events) and e.type = any(${s.param(WEBHOOK_EVENTS, 'text[]')})))
      and (w.private_nodes or ${EVERYONES}) and ${NO_CONVERSATION}
    returning id`,
    );
    s.cte('queued', queueTries('deliveries'));
    s.mustRead('queued');
  },
};
