import type { Sql } from '../database/sql.js';
import type { NotificationReadModel, NotificationView } from '../../../application/read-models.js';
import type { Viewer } from '../../../domain/users/role.js';
import type { CallerRef, Identified } from '../../../application/actor.js';
import { VIEWER_COLUMNS, VIEWER_CTE, type ViewerColumns, callerParams, viewerOf } from './callers.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import {
  NODE_COLUMNS,
  type NodeRow,
  REPLY_COLUMNS,
  type ReplyRow,
  type TopicRow,
  nodeView,
  replyView,
  topicColumns,
  topicView,
} from './rows.js';
import { type SqlReader, readerAs, readerOf, replyCondition, topicCondition } from './visibility.js';
import { READERS } from '../../../domain/visibility/visibility.js';

/** Notifications: a user's, those after one, by id for the live streams, and the unread counts. */

interface NotificationRow {
  id: number;
  user_id: number;
  type: NotificationView['type'];
  read: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  mention_type: NotificationView['mentionType'];
  actor: { id: number; login: string; name: string | null } | null;
  topic: TopicRow | null;
  reply: ReplyRow | null;
  node: NodeRow | null;
}

/** The caller and their unread count, in one statement: the lightest authenticated read (text made once). */
const UNREAD_COUNT_OF_CALLER = `with ${VIEWER_CTE}
  select ${VIEWER_COLUMNS}, coalesce(c.count, 0) as count
  from viewer v left join notification_unread_counts c on c.user_id = v.id`;

export class SqlNotificationReadModel implements NotificationReadModel {
  constructor(private readonly sql: Sql) {}

  async list(userId: number, page: { offset: number; limit: number }, viewer: Viewer): Promise<NotificationView[]> {
    const rows = await this.select(readerAs(viewer, '$1::int'), 'nt.user_id = $2 order by nt.id desc limit $3 offset $4', [
      viewer.id,
      userId,
      page.limit,
      page.offset,
    ]);
    return rows.map((row) => row.notification);
  }

  async after(userId: number, afterId: number, limit: number, viewer: Viewer): Promise<NotificationView[]> {
    const rows = await this.select(readerAs(viewer, '$1::int'), 'nt.user_id = $2 and nt.id > $3 order by nt.id limit $4', [
      viewer.id,
      userId,
      afterId,
      limit,
    ]);
    return rows.map((row) => row.notification);
  }

  byIdsOfAnyUser(ids: readonly number[]): Promise<{ userId: number; notification: NotificationView }[]> {
    return this.select(readerOf('nt.user_id'), 'nt.id = any($1::int[]) order by nt.id', [ids]);
  }

  /**
   * Related records come as JSON from scalar subqueries that reuse the same column lists as the other views;
   * `reader` is who sees them. A topic or reply they may not see (deleted, or held or hidden: visibility.ts) is
   * absent, as contract §5 says of deleted ones; so is a reply of a topic they may not see.
   */
  private async select(
    reader: SqlReader,
    where: string,
    params: unknown[],
  ): Promise<{ userId: number; notification: NotificationView }[]> {
    const rows = await this.sql.all<NotificationRow>(
      `select nt.id, nt.user_id, nt.type, nt.read_at is not null as read, nt.created_at, nt.updated_at, nt.mention_type,
         case when a.id is null then null else jsonb_build_object('id', a.id, 'login', a.login, 'name', a.name) end as actor,
         (select to_jsonb(x) from (
            select ${topicColumns(reader)} from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
            where t.id = nt.topic_id and ${topicCondition(READERS.post, reader, { topic: 't' })}) x) as topic,
         (select to_jsonb(x) from (
            select ${REPLY_COLUMNS} from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
            where r.id = nt.reply_id and ${replyCondition(READERS.post, reader, 'r')}
              and ${topicCondition(READERS.post, reader, { topic: 't' })}) x) as reply,
         (select to_jsonb(x) from (select ${NODE_COLUMNS} from nodes where id = nt.node_id) x) as node
       from notifications nt left join users a on a.id = nt.actor_id
       where ${where}`,
      params,
    );
    return rows.map((row) => ({
      userId: row.user_id,
      notification: {
        id: row.id,
        type: row.type,
        read: row.read,
        createdAt: toDate(row.created_at),
        updatedAt: toDate(row.updated_at),
        mentionType: row.mention_type,
        actor: row.actor,
        topic: row.topic ? topicView(row.topic) : null,
        reply: row.reply ? replyView(row.reply) : null,
        node: row.node ? nodeView(row.node) : null,
      },
    }));
  }

  async unreadCount(userId: number): Promise<number> {
    const rows = await this.sql.all<{ count: number }>(
      `select coalesce((select count from notification_unread_counts where user_id = $1), 0) as count`,
      [userId],
    );
    return rows[0]!.count;
  }

  async unreadCountOf(caller: CallerRef): Promise<Identified<number | null>> {
    const rows = await this.sql.all<ViewerColumns & { count: number }>(UNREAD_COUNT_OF_CALLER, callerParams(caller));
    return { viewer: viewerOf(rows[0]), result: rows[0]?.count ?? null };
  }

  async unreadCounts(userIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.sql.all<{ user_id: number; count: number }>(
      `select u.id as user_id, coalesce(c.count, 0) as count
       from unnest($1::int[]) as u(id) left join notification_unread_counts c on c.user_id = u.id`,
      [userIds],
    );
    return new Map(rows.map((row) => [row.user_id, row.count]));
  }
}
