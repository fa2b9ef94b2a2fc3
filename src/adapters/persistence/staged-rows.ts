import { type DomainEvent, type PostRef, WEBHOOK_EVENTS } from '../../domain/events.js';
import type { NewNotification } from '../../domain/notifications/notification.js';
import type { Reply } from '../../domain/replies/reply.js';
import type { SearchDocument } from '../../application/search/ports.js';
import type { CounterMove, CounterMoves, UserCounter } from '../../application/counters.js';
import type { MailJob } from '../../application/mail/mail-jobs.js';
import { queueMail } from './mail-task.js';
import type { Sql } from './sql.js';
import { queueTries } from './webhook-store.js';
import { countedReply } from './read-models/visibility.js';

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

/*
 * The statement that writes a unit of work's staged rows (`statement` below builds it from the parts the unit of
 * work needs), in one lock order for every writer (issue 30): two units of work that lock the same rows in
 * different orders deadlock, and PostgreSQL aborts one of them.
 * 1. New replies.
 * 2. The counters (counters.ts), in one order: topics, nodes, users, months; within each, by id. Each step waits for
 *    the one before it (PostgreSQL runs data-modifying CTEs in an order of its own unless one reads another), and
 *    each locks its rows in id order before it updates them when there are several (`*_locked`: a lock taken
 *    first and then again by the update costs a contended row about a tenth of reply create's throughput, so a
 *    single row is left to its update). Each update names the step before it and then its lock, in one
 *    expression (`(select count(*) from previous) + (select count(*) from locked) >= 0`), evaluated left to
 *    right before it reads a row: a lock step that has nothing to lock must not cut the chain. A topic's new reply moves its count and its last reply
 *    (never back to an earlier reply); a deleted one has the topic recounted, on a snapshot taken after the topic
 *    was locked (`flush` locks it first, in a statement of its own), so no concurrent reply is missed.
 * 3. The events (the outbox), and the webhook deliveries of these events (contract §13), one per event and
 *    subscribed webhook, each with its first try queued; the review items of held posts (contract §18); then the
 *    mail jobs (contract §17), on the same queue.
 * 4. The search documents of topics and of replies. An older version never overwrites a newer one: a reindex
 *    batch read before an edit lands after it.
 * 5. New notifications, and the notifications of deleted topics and replies. Their unread counts (and their
 *    events) are written by the notifications' statement triggers, which PostgreSQL runs at the end of the
 *    statement: after every row above, in user order. So every writer takes the users' count rows last, in one
 *    order. (An insert's and a delete's triggers each take theirs in order; no use case does both at once.)
 */

/** Bound values, numbered as they are added: `$n::type` in the text, the value at index n - 1. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}

/**
 * The statement for what a unit of work staged: only the parts it needs (a reply create writes neither nodes nor
 * recounts), so that PostgreSQL plans, and re-checks under contention, nothing that does no work. Its text is one
 * of a few shapes, each prepared once per connection.
 */
function statement(staged: Staged, counters: Tally): { text: string; values: unknown[] } | null {
  const p = new Params();
  const ctes: string[] = [];
  const column = <T, V>(rows: readonly T[], pick: (row: T) => V) => rows.map(pick);
  // The counter steps run in this order: each names the step before it (`after`) and its lock in one expression,
  // evaluated left to right before it reads a row.
  let previous: string | null = null;
  const after = (...steps: (string | null)[]) => {
    const named = [previous, ...steps].filter((step): step is string => step !== null);
    return named.length === 0 ? 'true' : `${named.map((step) => `(select count(*) from ${step})`).join(' + ')} >= 0`;
  };

  if (staged.replies.length > 0) {
    const r = staged.replies;
    ctes.push(`new_replies as (
    insert into replies (id, topic_id, user_id, body, body_html, action, visibility, likes_count, created_at, updated_at)
    select coalesce(d.id, nextval('replies_id_seq')), d.topic_id, d.user_id, d.body, d.body_html, d.action, d.visibility, 0,
           d.created_at, d.created_at
    from unnest(${p.add(
      column(r, (x) => x.id ?? null),
      'int[]',
    )}, ${p.add(
      column(r, (x) => x.topicId),
      'int[]',
    )},
      ${p.add(
        column(r, (x) => x.userId),
        'int[]',
      )}, ${p.add(
        column(r, (x) => x.body),
        'text[]',
      )},
      ${p.add(
        column(r, (x) => x.bodyHtml),
        'text[]',
      )}, ${p.add(
        column(r, (x) => x.action),
        'text[]',
      )},
      ${p.add(
        column(r, (x) => x.visibility),
        'text[]',
      )}, ${p.add(
        column(r, (x) => x.createdAt),
        'timestamptz[]',
      )})
      as d(id, topic_id, user_id, body, body_html, action, visibility, created_at)
    returning id)`);
    previous = 'new_replies';
  }

  const addedTopics = [...new Set(counters.added.map((m) => m.topicId))];
  if (addedTopics.length + counters.recounts.length > 1) {
    ctes.push(`topics_locked as (
    select id from topics where id = any(${p.add([...addedTopics, ...counters.recounts], 'int[]')}) order by id for no key update)`);
  }
  const topicsLocked = addedTopics.length + counters.recounts.length > 1 ? 'topics_locked' : null;
  if (counters.added.length > 0) {
    const m = counters.added;
    ctes.push(`added as (
    select distinct on (a.topic_id) a.topic_id, a.reply_id, a.user_id, u.login, a.at,
           count(*) over (partition by a.topic_id) as count
    from unnest(${p.add(
      column(m, (x) => x.topicId),
      'int[]',
    )}, ${p.add(
      column(m, (x) => x.replyId),
      'int[]',
    )},
      ${p.add(
        column(m, (x) => x.userId),
        'int[]',
      )}, ${p.add(
        column(m, (x) => x.at),
        'timestamptz[]',
      )})
      as a(topic_id, reply_id, user_id, at)
    join users u on u.id = a.user_id
    order by a.topic_id, a.reply_id desc)`);
    ctes.push(`topics_added as (
    update topics t set
      replies_count = t.replies_count + m.count,
      last_reply_id = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.reply_id else t.last_reply_id end,
      last_reply_user_id = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.user_id else t.last_reply_user_id end,
      last_reply_user_login = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.login else t.last_reply_user_login end,
      replied_at = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.at else t.replied_at end,
      last_active_at = greatest(t.last_active_at, m.at)
    from added m
    where t.id = m.topic_id and ${after(topicsLocked)}
    returning t.id)`);
    previous = 'topics_added';
  }
  if (counters.recounts.length > 0) {
    ctes.push(`topics_recounted as (
    update topics t set
      replies_count = (select count(*) from replies r where r.topic_id = t.id and ${countedReply('r')}),
      last_reply_id = last.id, last_reply_user_id = last.user_id, last_reply_user_login = last.login, replied_at = last.created_at
    from unnest(${p.add(counters.recounts, 'int[]')}) as target(id)
    left join lateral (
      select r.id, r.user_id, u.login, r.created_at from replies r join users u on u.id = r.user_id
      where r.topic_id = target.id and ${countedReply('r')}
      order by r.id desc limit 1
    ) last on true
    where t.id = target.id and ${after(previous === 'topics_added' ? null : topicsLocked)}
    returning t.id)`);
    previous = 'topics_recounted';
  }
  if (counters.nodes.size > 0) {
    const ids = p.add([...counters.nodes.keys()], 'int[]');
    const locked = counters.nodes.size > 1 ? 'nodes_locked' : null;
    if (locked) ctes.push(`nodes_locked as (select id from nodes where id = any(${ids}) order by id for no key update)`);
    ctes.push(`nodes_counted as (
    update nodes n set topics_count = greatest(n.topics_count + m.delta, 0)
    from unnest(${ids}, ${p.add([...counters.nodes.values()], 'int[]')}) as m(id, delta)
    where n.id = m.id and ${after(locked)}
    returning n.id)`);
    previous = 'nodes_counted';
  }
  if (counters.users.size > 0) {
    const rows = [...counters.users];
    const ids = p.add(
      column(rows, ([id]) => id),
      'int[]',
    );
    const locked = rows.length > 1 ? 'users_locked' : null;
    if (locked) ctes.push(`users_locked as (select id from users where id = any(${ids}) order by id for no key update)`);
    ctes.push(`users_counted as (
    update users u set
      topics_count = greatest(u.topics_count + m.topics, 0),
      replies_count = greatest(u.replies_count + m.replies, 0),
      favorites_count = greatest(u.favorites_count + m.favorites, 0),
      followers_count = greatest(u.followers_count + m.followers, 0),
      following_count = greatest(u.following_count + m.following, 0)
    from unnest(${ids}, ${p.add(
      column(rows, ([, c]) => c.topicsCount),
      'int[]',
    )},
      ${p.add(
        column(rows, ([, c]) => c.repliesCount),
        'int[]',
      )}, ${p.add(
        column(rows, ([, c]) => c.favoritesCount),
        'int[]',
      )},
      ${p.add(
        column(rows, ([, c]) => c.followersCount),
        'int[]',
      )}, ${p.add(
        column(rows, ([, c]) => c.followingCount),
        'int[]',
      )})
      as m(id, topics, replies, favorites, followers, following)
    where u.id = m.id and ${after(locked)}
    returning u.id)`);
    previous = 'users_counted';
  }
  if (counters.months.length > 0) {
    const m = counters.months;
    ctes.push(`month_moves as (
    select m.user_id, date_trunc('month', m.at at time zone 'UTC')::date as month, sum(m.delta)::int as delta
    from unnest(${p.add(
      column(m, (x) => x.userId),
      'int[]',
    )}, ${p.add(
      column(m, (x) => x.at),
      'timestamptz[]',
    )},
      ${p.add(
        column(m, (x) => x.delta),
        'int[]',
      )}) as m(user_id, at, delta)
    where ${after()}
    group by 1, 2)`);
    if (m.some((move) => move.delta > 0)) {
      ctes.push(`months_added as (
    insert into user_reply_months (user_id, month, replies)
    select user_id, month, delta from month_moves where delta > 0 order by user_id, month
    on conflict (user_id, month) do update set replies = user_reply_months.replies + excluded.replies)`);
    }
    if (m.some((move) => move.delta < 0)) {
      ctes.push(`months_removed as (
    update user_reply_months m set replies = greatest(m.replies + d.delta, 0)
    from month_moves d where m.user_id = d.user_id and m.month = d.month and d.delta < 0)`);
    }
  }

  if (staged.events.length > 0) {
    const e = staged.events;
    ctes.push(`stored as (
    insert into events (type, payload)
    select * from unnest(${p.add(
      column(e, (x) => x.type),
      'text[]',
    )}, ${p.add(
      column(e, (x) => JSON.stringify(outboxPayload(x))),
      'jsonb[]',
    )})
    returning id, type, payload)`);
    ctes.push(`deliveries as (
    insert into webhook_deliveries (id, webhook_id, event_id, event, payload)
    select gen_random_uuid(), w.id, e.id, e.type, e.payload
    from stored e join webhooks w on e.type = any(w.events) or ('*' = any(w.events) and e.type = any(${p.add(WEBHOOK_EVENTS, 'text[]')}))
    returning id)`);
    ctes.push(`queued as (${queueTries('deliveries')})`);
  }
  if (staged.holds.length > 0) {
    const h = staged.holds;
    ctes.push(`held as (
    insert into review_items (kind, target_type, target_id, topic_id, user_id, created_at)
    select 'hold', d.target_type, d.target_id, d.topic_id, d.user_id, d.created_at
    from unnest(${p.add(
      column(h, (x) => x.targetType),
      'text[]',
    )}, ${p.add(
      column(h, (x) => x.targetId),
      'int[]',
    )}, ${p.add(
      column(h, (x) => x.topicId),
      'int[]',
    )}, ${p.add(
      column(h, (x) => x.userId),
      'int[]',
    )}, ${p.add(
      column(h, (x) => x.at),
      'timestamptz[]',
    )}) as d(target_type, target_id, topic_id, user_id, created_at))`);
  }
  if (staged.mail.length > 0) {
    ctes.push(
      `mail_jobs as (select * from unnest(${p.add(
        column(staged.mail, (job) => JSON.stringify(job)),
        'json[]',
      )}) as j(payload))`,
    );
    ctes.push(`mail_queued as (${queueMail('mail_jobs')})`);
  }
  const topics = [...staged.topicDocuments.values()];
  if (topics.length > 0) {
    ctes.push(`topic_documents as (
    insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
    select d.topic_id, null, to_tsvector('english', d.title), to_tsvector('english', d.title || ' ' || d.body),
           d.text, d.created_at, d.updated_at
    from unnest(${p.add(
      column(topics, (d) => d.topicId),
      'int[]',
    )}, ${p.add(
      column(topics, (d) => d.title ?? ''),
      'text[]',
    )},
      ${p.add(
        column(topics, (d) => d.body),
        'text[]',
      )}, ${p.add(
        column(topics, (d) => d.text),
        'text[]',
      )},
      ${p.add(
        column(topics, (d) => d.createdAt),
        'timestamptz[]',
      )}, ${p.add(
        column(topics, (d) => d.sourceUpdatedAt),
        'timestamptz[]',
      )})
      as d(topic_id, title, body, text, created_at, updated_at)
    on conflict (topic_id) where reply_id is null do update
      set title_vector = excluded.title_vector, vector = excluded.vector, text = excluded.text,
          source_updated_at = excluded.source_updated_at
      where search_documents.source_updated_at <= excluded.source_updated_at)`);
  }
  const replies = [...staged.replyDocuments.values()];
  if (replies.length > 0) {
    ctes.push(`reply_documents as (
    insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
    select d.topic_id, d.reply_id, null, to_tsvector('english', d.body), d.text, d.created_at, d.updated_at
    from unnest(${p.add(
      column(replies, (d) => d.topicId),
      'int[]',
    )}, ${p.add(
      column(replies, (d) => d.replyId),
      'int[]',
    )},
      ${p.add(
        column(replies, (d) => d.body),
        'text[]',
      )}, ${p.add(
        column(replies, (d) => d.text),
        'text[]',
      )},
      ${p.add(
        column(replies, (d) => d.createdAt),
        'timestamptz[]',
      )}, ${p.add(
        column(replies, (d) => d.sourceUpdatedAt),
        'timestamptz[]',
      )})
      as d(topic_id, reply_id, body, text, created_at, updated_at)
    on conflict (reply_id) where reply_id is not null do update
      set vector = excluded.vector, text = excluded.text, source_updated_at = excluded.source_updated_at
      where search_documents.source_updated_at <= excluded.source_updated_at)`);
  }
  const n = staged.notifications;
  if (n.length > 0) {
    ctes.push(`notified as (
    insert into notifications (user_id, actor_id, type, topic_id, reply_id, node_id, mention_type)
    select * from unnest(${p.add(
      column(n, (x) => x.userId),
      'int[]',
    )}, ${p.add(
      column(n, (x) => x.actorId),
      'int[]',
    )},
      ${p.add(
        column(n, (x) => x.type),
        'text[]',
      )}, ${p.add(
        column(n, (x) => x.topicId ?? null),
        'int[]',
      )},
      ${p.add(
        column(n, (x) => x.replyId ?? null),
        'int[]',
      )}, ${p.add(
        column(n, (x) => x.nodeId ?? null),
        'int[]',
      )},
      ${p.add(
        column(n, (x) => x.mentionType ?? null),
        'text[]',
      )}))`);
  }
  const { topicIds, replyIds } = staged.unnotified;
  if (topicIds.length + replyIds.length > 0) {
    ctes.push(`unnotified as (
    delete from notifications
    where topic_id = any(${p.add(topicIds, 'int[]')}) or reply_id = any(${p.add(replyIds, 'int[]')}))`);
  }

  if (ctes.length === 0) return null;
  // queued and mail_queued are selects, which PostgreSQL runs only when read; new_replies gives each staged reply its id.
  const reads = [
    ...(staged.events.length > 0 ? ['(select count(*) from queued)'] : []),
    ...(staged.mail.length > 0 ? ['(select count(*) from mail_queued)'] : []),
  ];
  const queued = reads.length > 0 ? `(${reads.join(' + ')})::int` : '0';
  const ids = staged.replies.length > 0 ? '(select array_agg(id order by id) from new_replies)' : 'null::int[]';
  return { text: `with\n  ${ctes.join(',\n  ')}\n  select ${queued} as queued, ${ids} as reply_ids`, values: p.values };
}

/** The staged rows of one unit of work. Documents by source: the last version staged is the one written. */
interface Staged {
  replies: Reply[];
  counters: CounterMove[];
  events: DomainEvent[];
  topicDocuments: Map<number, SearchDocument>;
  replyDocuments: Map<number, SearchDocument>;
  notifications: NewNotification[];
  /** Mail to send once this commits (mail-queue.ts). */
  mail: MailJob[];
  /** Held posts' review items (contract §18). */
  holds: (PostRef & { at: Date })[];
  /** Topics and replies whose notifications go (they were deleted). */
  unnotified: { topicIds: number[]; replyIds: number[] };
}

const nothing = (): Staged => ({
  replies: [],
  counters: [],
  events: [],
  topicDocuments: new Map(),
  replyDocuments: new Map(),
  notifications: [],
  mail: [],
  holds: [],
  unnotified: { topicIds: [], replyIds: [] },
});

/**
 * A unit of work's rows that go together at its end, in one statement (`STATEMENT`), whatever their number: new
 * replies with the counters they move, the outbox's events, the search index's documents, new notifications.
 * Writing them at the end, in that statement, is what gives every writer the same lock order; it is also one
 * round trip however many rows (a reply that notifies ten users is one statement). The unit of work calls
 * `flush` just before it commits; a unit of work with no other write (reply create) needs no transaction at all,
 * since one statement is atomic by itself. Outside a unit of work, rows are written at once. A recount (a deleted
 * reply) locks its topic in a statement before that one, so it needs a transaction to hold the lock.
 *
 * No NOTIFY: a transaction that notifies takes PostgreSQL's one notification-queue lock at commit, so every
 * writing transaction would commit one after the other; measured on reply create at c=32 (bench:ab), that cost
 * 11–18 % of the throughput, and nothing without it. Processes poll the log instead (event-feed.ts).
 */
export class StagedRows implements CounterMoves {
  private readonly pending = new WeakMap<object, Staged>();

  constructor(private readonly sql: Sql) {}

  /** New replies (a reply without an id takes the next one when written). */
  replies(replies: readonly Reply[]): Promise<void> {
    return this.stage((staged) => staged.replies.push(...replies));
  }

  move(moves: readonly CounterMove[]): Promise<void> {
    return this.stage((staged) => staged.counters.push(...moves));
  }

  events(events: readonly DomainEvent[]): Promise<void> {
    return this.stage((staged) => staged.events.push(...events));
  }

  notifications(notifications: readonly NewNotification[]): Promise<void> {
    if (notifications.length === 0) return Promise.resolve();
    return this.stage((staged) => staged.notifications.push(...notifications));
  }

  /** Mail jobs, queued with the rest (mail-queue.ts). */
  mail(jobs: readonly MailJob[]): Promise<void> {
    return this.stage((staged) => staged.mail.push(...jobs));
  }

  /** The review items of held posts (review-store.ts), opened with the rest. */
  holds(holds: readonly (PostRef & { at: Date })[]): Promise<void> {
    return this.stage((staged) => staged.holds.push(...holds));
  }

  /** The notifications about these topics (and their replies) and replies, deleted with the rest. */
  unnotify(about: { topicIds?: readonly number[]; replyIds?: readonly number[] }): Promise<void> {
    return this.stage((staged) => {
      staged.unnotified.topicIds.push(...(about.topicIds ?? []));
      staged.unnotified.replyIds.push(...(about.replyIds ?? []));
    });
  }

  documents(documents: readonly SearchDocument[]): Promise<void> {
    return this.stage((staged) => {
      for (const document of documents) {
        if (document.replyId === null) staged.topicDocuments.set(document.topicId, document);
        else staged.replyDocuments.set(document.replyId, document);
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
    const counters = tally(staged.counters);
    // A recount must not miss a reply committed just before it: lock first, so that the statement's snapshot,
    // taken after, holds every reply that got to the topic before us (later ones wait for our commit).
    if (counters.recounts.length > 0) {
      if (!this.sql.inTransaction()) throw new Error('a reply deletion is counted inside a transaction (MikroOrmUnitOfWork)');
      await this.sql.all('select id from topics where id = any($1::int[]) order by id for no key update', [counters.recounts]);
    }
    const built = statement(staged, counters);
    if (!built) return;
    const [row] = await this.sql.all<{ reply_ids: number[] | null }>(built.text, built.values);
    // A reply staged without an id learns it, as an ORM's insert tells it (ids come in order: one per reply).
    const drawn = staged.replies.filter((reply) => reply.id === undefined);
    if (drawn.length > 0) {
      const known = new Set(staged.replies.flatMap((reply) => (reply.id === undefined ? [] : [reply.id])));
      const ids = (row?.reply_ids ?? []).filter((id) => !known.has(id));
      drawn.forEach((reply, i) => (reply.id = ids[i]!));
    }
  }
}

/** A unit of work's counter moves, summed by row: what the statement applies. */
interface Tally {
  added: Extract<CounterMove, { kind: 'reply.added' }>[];
  recounts: number[];
  nodes: Map<number, number>;
  users: Map<number, Record<UserCounter, number>>;
  months: { userId: number; at: Date; delta: number }[];
}

function tally(moves: readonly CounterMove[]): Tally {
  const tally: Tally = { added: [], recounts: [], nodes: new Map(), users: new Map(), months: [] };
  const user = (userId: number, counter: UserCounter, delta: number) => {
    let row = tally.users.get(userId);
    if (!row) {
      row = { topicsCount: 0, repliesCount: 0, favoritesCount: 0, followersCount: 0, followingCount: 0 };
      tally.users.set(userId, row);
    }
    row[counter] += delta;
  };
  for (const move of moves) {
    switch (move.kind) {
      case 'node.topics':
        tally.nodes.set(move.nodeId, (tally.nodes.get(move.nodeId) ?? 0) + move.delta);
        break;
      case 'user':
        user(move.userId, move.counter, move.delta);
        break;
      case 'reply.added':
      case 'reply.removed': {
        const delta = move.kind === 'reply.added' ? +1 : -1;
        if (move.kind === 'reply.added') tally.added.push(move);
        else if (!tally.recounts.includes(move.topicId)) tally.recounts.push(move.topicId);
        user(move.userId, 'repliesCount', delta);
        tally.months.push({ userId: move.userId, at: move.at, delta });
        break;
      }
    }
  }
  return tally;
}
