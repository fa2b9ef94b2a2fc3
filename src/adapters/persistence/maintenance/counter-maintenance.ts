import type { CounterFamily, CounterMaintenance, PurgedLog } from '../../../application/maintenance/maintenance.js';
import type { UnitOfWork } from '../../../application/ports.js';
import type { Sql } from '../database/sql.js';
import { countedReply, countedTopic, forumTopic } from '../read-models/visibility.js';

/**
 * For each family: lock the batch's rows, then recompute from a fresh snapshot (a second statement) and write
 * only the rows whose stored values differ. Locking first means a concurrent write either lands before the
 * recount sees the rows, or waits for it: the recount never overwrites a newer count with an older one.
 * Column families recompute columns of their own table; `activity` (replies per user and month) fixes rows of
 * user_reply_months for the batch's users, and `unread` the rows of notification_unread_counts. A user's replies
 * are the forum's: their messages in conversations (contract §24) count in no profile or ranking, as no write
 * counts them.
 */
type Recount = { table: string; fresh: string; columns: string[] } | { table: string; fix: string; lock?: string };

const RECOUNTS: Record<CounterFamily, Recount> = {
  topics: {
    table: 'topics',
    fresh: `
      select t.id,
        (select count(*)::int from replies r where r.topic_id = t.id and ${countedReply('r')}) as replies_count,
        last.id as last_reply_id, last.user_id as last_reply_user_id, last.login as last_reply_user_login,
        last.created_at as replied_at,
        (select count(*)::int from likes l where l.target_type = 'topic' and l.target_id = t.id) as likes_count
      from topics t
      left join lateral (
        select r.id, r.user_id, u.login, r.created_at from replies r join users u on u.id = r.user_id
        where r.topic_id = t.id and ${countedReply('r')} order by r.id desc limit 1
      ) last on true
      where t.id between $1 and $2`,
    columns: ['replies_count', 'last_reply_id', 'last_reply_user_id', 'last_reply_user_login', 'replied_at', 'likes_count'],
  },
  replies: {
    table: 'replies',
    fresh: `
      select r.id, (select count(*)::int from likes l where l.target_type = 'reply' and l.target_id = r.id) as likes_count
      from replies r where r.id between $1 and $2`,
    columns: ['likes_count'],
  },
  nodes: {
    table: 'nodes',
    fresh: `
      select n.id, (select count(*)::int from topics t where t.node_id = n.id and ${countedTopic('t')}) as topics_count
      from nodes n where n.id between $1 and $2`,
    columns: ['topics_count'],
  },
  users: {
    table: 'users',
    fresh: `
      select u.id,
        (select count(*)::int from topics t where t.user_id = u.id and ${countedTopic('t')}) as topics_count,
        (select count(*)::int from replies r join topics rt on rt.id = r.topic_id
         where r.user_id = u.id and ${countedReply('r')} and ${forumTopic('rt')}) as replies_count,
        (select count(*)::int from user_follows f where f.followee_id = u.id) as followers_count,
        (select count(*)::int from user_follows f where f.follower_id = u.id) as following_count,
        (select count(*)::int from topic_favorites f where f.user_id = u.id) as favorites_count
      from users u where u.id between $1 and $2`,
    columns: ['topics_count', 'replies_count', 'followers_count', 'following_count', 'favorites_count'],
  },
  activity: {
    table: 'users',
    fix: `
      with fresh as (
        select r.user_id, date_trunc('month', r.created_at at time zone 'UTC')::date as month, count(*)::int as replies
        from replies r join topics rt on rt.id = r.topic_id
        where r.user_id between $1 and $2 and ${countedReply('r')} and ${forumTopic('rt')} group by 1, 2),
      stored as (select user_id, month, replies from user_reply_months where user_id between $1 and $2),
      wrong as (
        select coalesce(f.user_id, s.user_id) as user_id, coalesce(f.month, s.month) as month,
               coalesce(f.replies, 0) as replies
        from fresh f full join stored s on s.user_id = f.user_id and s.month = f.month
        where coalesce(f.replies, 0) <> coalesce(s.replies, 0)),
      fixed as (
        insert into user_reply_months (user_id, month, replies) select user_id, month, replies from wrong
        on conflict (user_id, month) do update set replies = excluded.replies
        returning 1)
      select count(*)::int as n from fixed`,
  },
  // Counts that triggers keep (notification_unread_counts): no row of the batch to lock stands for them, so no
  // notification is written, read or deleted while a batch counts (one short statement).
  unread: {
    table: 'users',
    lock: 'lock table notifications in share mode',
    fix: `
      with fresh as (
        select user_id, count(*)::int as count from notifications
        where user_id between $1 and $2 and read_at is null group by user_id),
      wrong as (
        select u.id as user_id, coalesce(f.count, 0) as count
        from users u left join fresh f on f.user_id = u.id left join notification_unread_counts c on c.user_id = u.id
        where u.id between $1 and $2 and coalesce(f.count, 0) <> coalesce(c.count, 0)),
      fixed as (
        insert into notification_unread_counts as c (user_id, count) select user_id, count from wrong order by user_id
        on conflict (user_id) do update set count = excluded.count
        returning 1)
      select count(*)::int as n from fixed`,
  },
};

/** The statement that rewrites a family's columns where they differ from their fresh values. */
function columnFix({ table, fresh, columns }: { table: string; fresh: string; columns: string[] }): string {
  const stored = columns.map((column) => `x.${column}`).join(', ');
  const recomputed = columns.map((column) => `f.${column}`).join(', ');
  return `with f as (${fresh}),
    fixed as (
      update ${table} x set ${columns.map((column) => `${column} = f.${column}`).join(', ')}
      from f where x.id = f.id and (${stored}) is distinct from (${recomputed})
      returning 1)
    select count(*)::int as n from fixed`;
}

/**
 * The only text spliced into the purge statement, from a closed map: each log's table, which of its old rows may
 * go (a delivery still being tried stays, however old), and the order a batch takes them in. Notifications walk
 * their created_at index, which stops at the first row too new; the others have none, and walk their ids (old
 * rows first, as ids grow with time). The batch's ids are gathered first and deleted by primary key: with
 * `id in (…)`, the plan made once for every cutoff and batch size (the SQL pool's generic plans) joined them by a
 * scan of the whole table.
 */
const PURGED: Record<PurgedLog, { table: string; gone: string; order: string }> = {
  notifications: { table: 'notifications', gone: 'true', order: 'created_at' },
  events: { table: 'events', gone: 'true', order: 'id' },
  webhookDeliveries: { table: 'webhook_deliveries', gone: "status <> 'pending'", order: 'id' },
};

export class SqlCounterMaintenance implements CounterMaintenance {
  constructor(
    private readonly sql: Sql,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async idRange(family: CounterFamily): Promise<{ min: number; max: number } | null> {
    const { min, max } = (await this.sql.one<{ min: number | null; max: number | null }>(
      `select min(id) as min, max(id) as max from ${RECOUNTS[family].table}`,
    ))!;
    return min === null || max === null ? null : { min, max };
  }

  async recount(family: CounterFamily, from: number, to: number): Promise<number> {
    const recount = RECOUNTS[family];
    return this.unitOfWork.run(async () => {
      if ('lock' in recount && recount.lock) await this.sql.all(recount.lock);
      else await this.sql.all(`select id from ${recount.table} where id between $1 and $2 for update`, [from, to]);
      const rows = await this.sql.all<{ n: number }>('fix' in recount ? recount.fix : columnFix(recount), [from, to]);
      return rows[0]!.n;
    });
  }

  async purge(log: PurgedLog, before: Date, limit: number): Promise<number> {
    const { table, gone, order } = PURGED[log];
    const rows = await this.sql.all<{ n: number }>(
      `with gone as (
         delete from ${table} where id = any(array(select id from ${table} where created_at < $1 and ${gone} order by ${order} limit $2))
         returning 1)
       select count(*)::int as n from gone`,
      [before, limit],
    );
    return rows[0]!.n;
  }
}
