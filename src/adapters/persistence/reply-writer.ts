import type { Reply } from '../../domain/replies/reply.js';
import type { NotificationToWrite, ReplyContext, ReplyWriter } from '../../application/replies/reply-writer.js';
import type { Sql } from './sql.js';
import { insertNotifications, notificationColumns } from './notification-rows.js';
import { STAGED_ROWS_RESULT, type StagedRows, stagedRows } from './staged-rows.js';

interface ContextRow {
  topic_id: number | null;
  topic_user_id: number | null;
  topic_title: string | null;
  topic_closed: boolean | null;
  reply_id: number | null;
  replier_login: string;
  replier_name: string | null;
  follower_ids: number[];
  mentioned_ids: number[];
  blocked_actor_for: number[];
  notification_ids: number[];
}

/** The reply's notifications, bound from $8 on, inside the write statement. */
const NOTIFIED = insertNotifications(8);

/** A reply create in two statements (see the port): a read, then the write with the rows its events staged. */
export class SqlReplyWriter implements ReplyWriter {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  async context(topicId: number, replierId: number, mentionedLogins: readonly string[]): Promise<ReplyContext> {
    // $1 topic, $2 replier, $3 mentioned logins (lower case). Ids are drawn for a visible topic: the reply's, and
    // for an open one, one for each user who may be notified (the topic's author, its followers, those mentioned).
    // A reply refused after this (its body, the replier's role) leaves them unused: gaps, as a rollback leaves.
    const row = (await this.sql.one<ContextRow>(
      `with topic as (select id, user_id, title, closed_at is not null as closed from topics where id = $1 and deleted_at is null),
       followers as (select f.user_id from topic_follows f join topic t on t.id = f.topic_id),
       mentioned as (select id, lower(login) as login from users where lower(login) = any($3::text[]))
       select t.id as topic_id, t.user_id as topic_user_id, t.title as topic_title, t.closed as topic_closed,
         case when t.id is not null then nextval('replies_id_seq')::int end as reply_id,
         case when t.id is not null and not t.closed then array(
           select nextval('notifications_id_seq')::int from (
             select user_id from topic union select user_id from followers union select id from mentioned) notifiable
           where notifiable.user_id <> $2) else '{}' end as notification_ids,
         u.login as replier_login, u.name as replier_name,
         array(select user_id from followers order by user_id) as follower_ids,
         array(select id from mentioned order by array_position($3::text[], login)) as mentioned_ids,
         array(select b.user_id from user_blocks b where b.blocked_user_id = $2 and b.user_id in (
           select user_id from topic union select user_id from followers union select id from mentioned)
           order by b.user_id) as blocked_actor_for
       from users u left join topic t on true
       where u.id = $2`,
      [topicId, replierId, mentionedLogins],
    ))!;
    return {
      topic:
        row.topic_id === null
          ? null
          : { id: row.topic_id, userId: row.topic_user_id!, title: row.topic_title!, closed: row.topic_closed! },
      replyId: row.reply_id,
      replier: { id: replierId, login: row.replier_login, name: row.replier_name },
      followerIds: row.follower_ids,
      mentionedIds: row.mentioned_ids,
      blockedActorFor: row.blocked_actor_for,
      notificationIds: row.notification_ids,
    };
  }

  async write(reply: Reply, replierLogin: string, notifications: readonly NotificationToWrite[]): Promise<void> {
    // Every counter row is shared by every writer; the statement holds their locks only until it commits (by
    // itself, as the whole change; or with the transaction it joined). Concurrent replies never lose an increment (each update re-reads its row once locked), and the
    // last-reply fields only ever move forward to a later reply. The counters are locked in the order every other
    // writer locks them (topic, user, month: a reply deletion too), or the two would deadlock: PostgreSQL runs
    // unreferenced data-modifying CTEs in an order of its own, so each update reads the one before it.
    // The rows of the events recorded before it (search document, outbox) go with it: one atomic statement.
    await this.sql.all(
      `with reply as (
         insert into replies (id, topic_id, user_id, body, body_html, action, likes_count, created_at, updated_at)
         values ($1, $2, $3, $4, $5, null, 0, $6, $6)
         returning id),
       notified as (${NOTIFIED}),
       topic_counted as (
         update topics set
           replies_count = replies_count + 1,
           last_reply_id = case when last_reply_id is null or last_reply_id < $1 then $1 else last_reply_id end,
           last_reply_user_id = case when last_reply_id is null or last_reply_id < $1 then $3 else last_reply_user_id end,
           last_reply_user_login = case when last_reply_id is null or last_reply_id < $1 then $7 else last_reply_user_login end,
           replied_at = case when last_reply_id is null or last_reply_id < $1 then $6 else replied_at end,
           last_active_at = greatest(last_active_at, $6)
         where id = $2
         returning id),
       user_counted as (
         update users set replies_count = replies_count + 1 where id = $3 and exists (select 1 from topic_counted)
         returning id),
       month_counted as (
         insert into user_reply_months (user_id, month, replies)
         select id, date_trunc('month', $6::timestamptz at time zone 'UTC')::date, 1 from user_counted
         on conflict (user_id, month) do update set replies = user_reply_months.replies + 1),
       ${stagedRows(16)}
       ${STAGED_ROWS_RESULT}`,
      [
        reply.id,
        reply.topicId,
        reply.userId,
        reply.body,
        reply.bodyHtml,
        reply.createdAt,
        replierLogin,
        ...notificationColumns(notifications),
        ...this.staged.take(),
      ],
    );
  }
}
