import { type DomainEvent, WEBHOOK_EVENTS } from '../../domain/events.js';
import type { NewNotification } from '../../domain/notifications/notification.js';
import type { Reply } from '../../domain/replies/reply.js';
import type { SearchDocument } from '../../application/search/ports.js';
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
 * The statement that writes a unit of work's staged rows, in one lock order for every writer (issue 30): two
 * units of work that lock the same rows in different orders deadlock, and PostgreSQL aborts one of them.
 * 1. New replies, and the counters they move: each topic's replies count and last reply (never moved back to an
 *    earlier reply), then each author's replies count, then their month. Topic, then user, then month, as every
 *    other writer takes them (a reply deletion, a topic's create and delete): each update waits for the one
 *    before it (PostgreSQL runs data-modifying CTEs in an order of its own unless one reads another).
 * 2. The events (the outbox), and the webhook deliveries of these events (contract §13), one per event and
 *    subscribed webhook, each with its first try queued.
 * 3. The search documents of topics and of replies. An older version never overwrites a newer one: a reindex
 *    batch read before an edit lands after it.
 * 4. New notifications. Their unread counts (and their `notification.created` event) are written by the
 *    notifications' statement trigger, which PostgreSQL runs at the end of the statement: after every row above,
 *    in user order. So every writer takes the users' count rows last, in one order.
 */
const STATEMENT = `with
  new_replies as (
    insert into replies (id, topic_id, user_id, body, body_html, action, likes_count, created_at, updated_at)
    select coalesce(d.id, nextval('replies_id_seq')), d.topic_id, d.user_id, d.body, d.body_html, d.action, 0, d.created_at,
           d.created_at
    from unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
      as d(id, topic_id, user_id, body, body_html, action, created_at)
    returning id, topic_id, user_id, action, created_at),
  counted as (select * from new_replies where action is null),
  topic_moves as (
    select distinct on (r.topic_id) r.topic_id, r.id, r.user_id, u.login, r.created_at,
           count(*) over (partition by r.topic_id) as added
    from counted r join users u on u.id = r.user_id
    order by r.topic_id, r.id desc),
  topic_counted as (
    update topics t set
      replies_count = t.replies_count + m.added,
      last_reply_id = case when t.last_reply_id is null or t.last_reply_id < m.id then m.id else t.last_reply_id end,
      last_reply_user_id = case when t.last_reply_id is null or t.last_reply_id < m.id then m.user_id else t.last_reply_user_id end,
      last_reply_user_login = case when t.last_reply_id is null or t.last_reply_id < m.id then m.login else t.last_reply_user_login end,
      replied_at = case when t.last_reply_id is null or t.last_reply_id < m.id then m.created_at else t.replied_at end,
      last_active_at = greatest(t.last_active_at, m.created_at)
    from (select * from topic_moves order by topic_id) m
    where t.id = m.topic_id
    returning t.id),
  user_counted as (
    update users u set replies_count = u.replies_count + m.added
    from (select user_id, count(*) as added from counted group by user_id order by user_id) m
    where u.id = m.user_id and (select count(*) from topic_counted) >= 0
    returning u.id),
  month_counted as (
    insert into user_reply_months (user_id, month, replies)
    select user_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*) from counted
    where (select count(*) from user_counted) >= 0
    group by 1, 2 order by 1, 2
    on conflict (user_id, month) do update set replies = user_reply_months.replies + excluded.replies),
  stored as (
    insert into events (type, payload) select * from unnest($8::text[], $9::jsonb[]) returning id, type, payload),
  deliveries as (
    insert into webhook_deliveries (id, webhook_id, event_id, event, payload)
    select gen_random_uuid(), w.id, e.id, e.type, e.payload
    from stored e join webhooks w on e.type = any(w.events) or ('*' = any(w.events) and e.type = any($10::text[]))
    returning id),
  queued as (${queueTries('deliveries')}),
  topic_documents as (
    insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
    select d.topic_id, null, to_tsvector('english', d.title), to_tsvector('english', d.title || ' ' || d.body),
           d.text, d.created_at, d.updated_at
    from unnest($11::int[], $12::text[], $13::text[], $14::text[], $15::timestamptz[], $16::timestamptz[])
      as d(topic_id, title, body, text, created_at, updated_at)
    on conflict (topic_id) where reply_id is null do update
      set title_vector = excluded.title_vector, vector = excluded.vector, text = excluded.text,
          source_updated_at = excluded.source_updated_at
      where search_documents.source_updated_at <= excluded.source_updated_at),
  reply_documents as (
    insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
    select d.topic_id, d.reply_id, null, to_tsvector('english', d.body), d.text, d.created_at, d.updated_at
    from unnest($17::int[], $18::int[], $19::text[], $20::text[], $21::timestamptz[], $22::timestamptz[])
      as d(topic_id, reply_id, body, text, created_at, updated_at)
    on conflict (reply_id) where reply_id is not null do update
      set vector = excluded.vector, text = excluded.text, source_updated_at = excluded.source_updated_at
      where search_documents.source_updated_at <= excluded.source_updated_at),
  notified as (
    insert into notifications (user_id, actor_id, type, topic_id, reply_id, node_id, mention_type)
    select * from unnest($23::int[], $24::int[], $25::text[], $26::int[], $27::int[], $28::int[], $29::text[]))
  -- queued is a select, which PostgreSQL runs only when read; new_replies gives each staged reply its id.
  select (select count(*) from queued)::int as queued, (select array_agg(id order by id) from new_replies) as reply_ids`;

/** The staged rows of one unit of work. Documents by source: the last version staged is the one written. */
interface Staged {
  replies: Reply[];
  events: DomainEvent[];
  topics: Map<number, SearchDocument>;
  replies_: Map<number, SearchDocument>;
  notifications: NewNotification[];
}

const nothing = (): Staged => ({ replies: [], events: [], topics: new Map(), replies_: new Map(), notifications: [] });

/**
 * A unit of work's rows that go together at its end, in one statement (`STATEMENT`), whatever their number: new
 * replies with the counters they move, the outbox's events, the search index's documents, new notifications.
 * Writing them at the end, in that statement, is what gives every writer the same lock order; it is also one
 * round trip however many rows (a reply that notifies ten users is one statement). The unit of work calls
 * `flush` just before it commits; a unit of work with no other write (reply create) needs no transaction at all,
 * since one statement is atomic by itself. Outside a unit of work, rows are written at once.
 *
 * No NOTIFY: a transaction that notifies takes PostgreSQL's one notification-queue lock at commit, so every
 * writing transaction would commit one after the other; measured on reply create at c=32 (bench:ab), that cost
 * 11–18 % of the throughput, and nothing without it. Processes poll the log instead (event-feed.ts).
 */
export class StagedRows {
  private readonly pending = new WeakMap<object, Staged>();

  constructor(private readonly sql: Sql) {}

  /** New replies (a reply without an id takes the next one when written). */
  replies(replies: readonly Reply[]): Promise<void> {
    return this.stage((staged) => staged.replies.push(...replies));
  }

  events(events: readonly DomainEvent[]): Promise<void> {
    return this.stage((staged) => staged.events.push(...events));
  }

  notifications(notifications: readonly NewNotification[]): Promise<void> {
    if (notifications.length === 0) return Promise.resolve();
    return this.stage((staged) => staged.notifications.push(...notifications));
  }

  documents(documents: readonly SearchDocument[]): Promise<void> {
    return this.stage((staged) => {
      for (const document of documents) {
        if (document.replyId === null) staged.topics.set(document.topicId, document);
        else staged.replies_.set(document.replyId, document);
      }
    });
  }

  /** Writes what the current unit of work staged. */
  async flush(): Promise<void> {
    const unitOfWork = this.sql.unitOfWork();
    const staged = unitOfWork && this.pending.get(unitOfWork);
    if (!staged) return;
    this.pending.delete(unitOfWork);
    await this.write(staged);
  }

  /** Adds rows to the current unit of work's; outside one, writes them at once. */
  private async stage(add: (staged: Staged) => void): Promise<void> {
    const unitOfWork = this.sql.unitOfWork();
    if (!unitOfWork) {
      const staged = nothing();
      add(staged);
      return this.write(staged);
    }
    let staged = this.pending.get(unitOfWork);
    if (!staged) this.pending.set(unitOfWork, (staged = nothing()));
    add(staged);
  }

  private async write(staged: Staged): Promise<void> {
    const [row] = await this.sql.all<{ reply_ids: number[] | null }>(STATEMENT, values(staged));
    // A reply staged without an id learns it, as an ORM's insert tells it (ids come in order: one per reply).
    const drawn = staged.replies.filter((reply) => reply.id === undefined);
    if (drawn.length > 0) {
      const known = new Set(staged.replies.flatMap((reply) => (reply.id === undefined ? [] : [reply.id])));
      const ids = (row?.reply_ids ?? []).filter((id) => !known.has(id));
      drawn.forEach((reply, i) => (reply.id = ids[i]!));
    }
  }
}

function values(staged: Staged): unknown[] {
  const topics = [...staged.topics.values()];
  const replies = [...staged.replies_.values()];
  const column = <T, V>(rows: readonly T[], pick: (row: T) => V) => rows.map(pick);
  return [
    column(staged.replies, (r) => r.id ?? null),
    column(staged.replies, (r) => r.topicId),
    column(staged.replies, (r) => r.userId),
    column(staged.replies, (r) => r.body),
    column(staged.replies, (r) => r.bodyHtml),
    column(staged.replies, (r) => r.action),
    column(staged.replies, (r) => r.createdAt),
    column(staged.events, (event) => event.type),
    column(staged.events, (event) => JSON.stringify(outboxPayload(event))),
    WEBHOOK_EVENTS,
    column(topics, (d) => d.topicId),
    column(topics, (d) => d.title ?? ''),
    column(topics, (d) => d.body),
    column(topics, (d) => d.text),
    column(topics, (d) => d.createdAt),
    column(topics, (d) => d.sourceUpdatedAt),
    column(replies, (d) => d.topicId),
    column(replies, (d) => d.replyId),
    column(replies, (d) => d.body),
    column(replies, (d) => d.text),
    column(replies, (d) => d.createdAt),
    column(replies, (d) => d.sourceUpdatedAt),
    column(staged.notifications, (n) => n.userId),
    column(staged.notifications, (n) => n.actorId),
    column(staged.notifications, (n) => n.type),
    column(staged.notifications, (n) => n.topicId ?? null),
    column(staged.notifications, (n) => n.replyId ?? null),
    column(staged.notifications, (n) => n.nodeId ?? null),
    column(staged.notifications, (n) => n.mentionType ?? null),
  ];
}
