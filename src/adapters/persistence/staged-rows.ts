import { type DomainEvent, WEBHOOK_EVENTS } from '../../domain/events.js';
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
 * The rows that in-transaction consumers append, as the common table expressions of one statement, bound from
 * `$first` (15 of them, in the order of `StagedRows.take`'s values):
 * - the events (the outbox), and the webhook deliveries of these events (contract §13), one per event and
 *   subscribed webhook, each with its first try queued; with no webhook subscribed it costs a join with an empty
 *   table;
 * - the search documents of topics and of replies. An older version never overwrites a newer one: a reindex
 *   batch read before an edit lands after it.
 * The statement must end with `STAGED_ROWS_RESULT`: `queued` is a select, which PostgreSQL runs only when read.
 */
export const stagedRows = (first: number): string => {
  const p = (i: number) => `$${first + i}`;
  return `stored as (
       insert into events (type, payload) select * from unnest(${p(0)}::text[], ${p(1)}::jsonb[]) returning id, type, payload),
     deliveries as (
       insert into webhook_deliveries (id, webhook_id, event_id, event, payload)
       select gen_random_uuid(), w.id, e.id, e.type, e.payload
       from stored e join webhooks w on e.type = any(w.events) or ('*' = any(w.events) and e.type = any(${p(2)}::text[]))
       returning id),
     queued as (${queueTries('deliveries')}),
     topic_documents as (
       insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
       select d.topic_id, null, to_tsvector('english', d.title), to_tsvector('english', d.title || ' ' || d.body),
              d.text, d.created_at, d.updated_at
       from unnest(${p(3)}::int[], ${p(4)}::text[], ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::timestamptz[],
                   ${p(8)}::timestamptz[]) as d(topic_id, title, body, text, created_at, updated_at)
       on conflict (topic_id) where reply_id is null do update
         set title_vector = excluded.title_vector, vector = excluded.vector, text = excluded.text,
             source_updated_at = excluded.source_updated_at
         where search_documents.source_updated_at <= excluded.source_updated_at),
     reply_documents as (
       insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
       select d.topic_id, d.reply_id, null, to_tsvector('english', d.body), d.text, d.created_at, d.updated_at
       from unnest(${p(9)}::int[], ${p(10)}::int[], ${p(11)}::text[], ${p(12)}::text[], ${p(13)}::timestamptz[],
                   ${p(14)}::timestamptz[]) as d(topic_id, reply_id, body, text, created_at, updated_at)
       on conflict (reply_id) where reply_id is not null do update
         set vector = excluded.vector, text = excluded.text, source_updated_at = excluded.source_updated_at
         where search_documents.source_updated_at <= excluded.source_updated_at)`;
};

/** The select that ends a statement with `stagedRows` in it (it reads `queued`, so that the tries are queued). */
export const STAGED_ROWS_RESULT = 'select (select count(*) from queued)::int as queued';

/** The staged rows of one unit of work. Documents by source: the last version staged is the one written. */
interface Staged {
  events: DomainEvent[];
  topics: Map<number, SearchDocument>;
  replies: Map<number, SearchDocument>;
}

const nothing = (): Staged => ({ events: [], topics: new Map(), replies: new Map() });

/**
 * The rows in-transaction consumers append (the outbox's events, the search index's documents), kept until
 * the end of the unit of work and written in one statement, whatever their number: a reply that notifies ten
 * users, or a topic and its document, cost one statement, not two or three. That statement is the one that
 * takes them (`take`: a use case whose change is one statement, so that the change and its rows are one atomic
 * statement with no transaction around it), or else `flush`, which the unit of work calls just before it
 * commits. Outside a unit of work there is nothing to wait for: rows are written at once.
 *
 * No NOTIFY: a transaction that notifies takes PostgreSQL's one notification-queue lock at commit, so every
 * writing transaction would commit one after the other; measured on reply create at c=32 (bench:ab), that cost
 * 11–18 % of the throughput, and nothing without it. Processes poll the log instead (event-feed.ts).
 */
export class StagedRows {
  private readonly pending = new WeakMap<object, Staged>();
  /** The units of work whose rows a statement took. */
  private readonly taken = new WeakSet<object>();

  constructor(private readonly sql: Sql) {}

  events(events: readonly DomainEvent[]): Promise<void> {
    return this.stage((staged) => staged.events.push(...events));
  }

  documents(documents: readonly SearchDocument[]): Promise<void> {
    return this.stage((staged) => {
      for (const document of documents) {
        if (document.replyId === null) staged.topics.set(document.topicId, document);
        else staged.replies.set(document.replyId, document);
      }
    });
  }

  /** The values of `stagedRows` for what the current unit of work staged (empty lists when nothing); taken, not kept. */
  take(): unknown[] {
    const unitOfWork = this.sql.unitOfWork();
    if (unitOfWork) this.taken.add(unitOfWork);
    return values(this.unstage() ?? nothing());
  }

  /** Writes what the current unit of work staged and no statement took. */
  async flush(): Promise<void> {
    const staged = this.unstage();
    if (staged) await this.write(staged);
  }

  /** The current unit of work's staged rows, no longer kept for it (undefined when it has none). */
  private unstage(): Staged | undefined {
    const unitOfWork = this.sql.unitOfWork();
    const staged = unitOfWork && this.pending.get(unitOfWork);
    if (staged) this.pending.delete(unitOfWork);
    return staged;
  }

  /** Adds rows to the current unit of work's; outside one, writes them at once. */
  private async stage(add: (staged: Staged) => void): Promise<void> {
    const unitOfWork = this.sql.unitOfWork();
    if (!unitOfWork) {
      const staged = nothing();
      add(staged);
      return this.write(staged);
    }
    // Without a transaction, rows staged after the change's statement would be written apart from it: a fault of
    // the use case (it records its events before its write), never to be papered over by writing them later.
    if (this.taken.has(unitOfWork) && this.sql.inOneStatement()) {
      throw new Error('rows staged after the statement of a one-statement unit of work: record events before the write');
    }
    let staged = this.pending.get(unitOfWork);
    if (!staged) this.pending.set(unitOfWork, (staged = nothing()));
    add(staged);
  }

  private async write(staged: Staged): Promise<void> {
    await this.sql.all(`with ${stagedRows(1)} ${STAGED_ROWS_RESULT}`, values(staged));
  }
}

function values(staged: Staged): unknown[] {
  const topics = [...staged.topics.values()];
  const replies = [...staged.replies.values()];
  return [
    staged.events.map((event) => event.type),
    staged.events.map((event) => JSON.stringify(outboxPayload(event))),
    WEBHOOK_EVENTS,
    topics.map((d) => d.topicId),
    topics.map((d) => d.title ?? ''),
    topics.map((d) => d.body),
    topics.map((d) => d.text),
    topics.map((d) => d.createdAt),
    topics.map((d) => d.sourceUpdatedAt),
    replies.map((d) => d.topicId),
    replies.map((d) => d.replyId),
    replies.map((d) => d.body),
    replies.map((d) => d.text),
    replies.map((d) => d.createdAt),
    replies.map((d) => d.sourceUpdatedAt),
  ];
}
