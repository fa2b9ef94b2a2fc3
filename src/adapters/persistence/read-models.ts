import { Sql } from './sql.js';
import type {
  NodeReadModel,
  FollowDirection,
  NodeView,
  Page,
  NotificationReadModel,
  NotificationView,
  ReplyDetailView,
  ReplyPage,
  ReplyReadModel,
  ReplyView,
  ShownTopic,
  TopicDetailView,
  TopicListQuery,
  TopicListType,
  TopicReadModel,
  TopicView,
  TopicViewerMeta,
  UserDetailView,
  UserReadModel,
  UserRelationView,
  UserTopicOrder,
  UserView,
} from '../../application/read-models.js';
import type { Viewer } from '../../domain/users/role.js';
import type { CallerRef, Identified } from '../../application/actor.js';
import { VIEWER_COLUMNS, VIEWER_CTE, type ViewerColumns, callerParams, mayBeSignedIn, viewerOf } from './callers.js';
import { couldBeLogin } from '../../domain/users/user.js';
import { type Timestamp, toDate } from './timestamps.js';

/**
 * The read side: one SQL statement per request, straight into views. Every value travels as a bound parameter;
 * the only SQL chosen in code is from the closed tables below. Statements that show topics bind the viewer's id
 * (or null) as `$1`: TOPIC_COLUMNS reads it to tell whether the viewer's topic has replies from others.
 */

/** A topic's columns; `viewer` is the SQL for the viewing user's id (the author's abilities depend on it). */
export const topicColumns = (viewer: string) => `
  t.id, t.title, t.created_at, t.updated_at, t.replied_at, t.replies_count, t.node_id, n.name as node_name,
  t.last_reply_user_id, t.last_reply_user_login, t.grade, t.likes_count, t.hits, t.lock_node, t.closed_at,
  u.id as user_id, u.login as user_login, u.name as user_name,
  case when t.user_id = ${viewer} then exists(
    select 1 from replies r where r.topic_id = t.id and r.user_id <> t.user_id and r.action is null and r.deleted_at is null
  ) else false end as has_replies_from_others`;

/** With the viewer's id as the statement's first parameter. */
export const TOPIC_COLUMNS = topicColumns('$1');

const USER_TOPIC_ORDER: Record<UserTopicOrder, string> = {
  recent: 't.id desc',
  likes: 't.likes_count desc, t.id desc',
  replies: 't.replies_count desc, t.id desc',
};

const LIST_SHAPES: Record<TopicListType, { where: string; orderBy: string }> = {
  last_actived: { where: '', orderBy: 't.last_active_at desc, t.id desc' },
  recent: { where: '', orderBy: 't.id desc' },
  no_reply: { where: 'and t.replies_count = 0', orderBy: 't.last_active_at desc, t.id desc' },
  popular: { where: 'and t.likes_count > 5', orderBy: 't.last_active_at desc, t.id desc' },
  excellent: { where: "and t.grade = 'excellent'", orderBy: 't.id desc' },
};

export interface TopicRow {
  id: number;
  title: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  replied_at: Timestamp | null;
  replies_count: number;
  node_id: number;
  node_name: string;
  last_reply_user_id: number | null;
  last_reply_user_login: string | null;
  grade: 'normal' | 'excellent';
  likes_count: number;
  hits: number;
  lock_node: boolean;
  closed_at: Timestamp | null;
  user_id: number;
  user_login: string;
  user_name: string | null;
  has_replies_from_others: boolean;
}

export interface TopicDetailRow extends TopicRow {
  body: string;
  body_html: string;
}

export function topicView(row: TopicRow): TopicView {
  return {
    id: row.id,
    title: row.title,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    repliedAt: toDate(row.replied_at),
    repliesCount: row.replies_count,
    nodeId: row.node_id,
    nodeName: row.node_name,
    lastReplyUserId: row.last_reply_user_id,
    lastReplyUserLogin: row.last_reply_user_login,
    grade: row.grade,
    likesCount: row.likes_count,
    hits: row.hits,
    lockNode: row.lock_node,
    closedAt: toDate(row.closed_at),
    user: { id: row.user_id, login: row.user_login, name: row.user_name },
    hasRepliesFromOthers: row.has_replies_from_others,
  };
}

export function topicDetailView(row: TopicDetailRow): TopicDetailView {
  return { ...topicView(row), body: row.body, bodyHtml: row.body_html };
}

export class SqlTopicReadModel implements TopicReadModel {
  constructor(private readonly sql: Sql) {}

  async list(query: TopicListQuery, caller: CallerRef): Promise<Identified<TopicView[] | null>> {
    const shape = LIST_SHAPES[query.type];
    // $1–$5 the caller, $6 limit, $7 offset, $8 node (only when filtering by node).
    const params: unknown[] = [...callerParams(caller), query.limit, query.offset];
    let gate = '(select 1) gate';
    let scope: string;
    if (query.nodeId !== null) {
      // No row at all when the node does not exist; one row without a topic when its page is empty.
      gate = '(select 1 from nodes where id = $8) gate';
      scope = 'and t.node_id = $8';
      params.push(query.nodeId);
    } else if (mayBeSignedIn(caller)) {
      // A caller's blocks apply; a token that turned out not to be live lists as the signed-out do.
      scope = `and (v.id is not null or not n.hidden)
               and not exists (select 1 from node_blocks b where b.user_id = v.id and b.node_id = t.node_id)
               and not exists (select 1 from user_blocks b where b.user_id = v.id and b.blocked_user_id = t.user_id)`;
    } else {
      scope = 'and not n.hidden';
    }
    const rows = await this.sql.all<Partial<TopicRow> & ViewerColumns>(
      `with ${VIEWER_CTE}
       select p.*, ${VIEWER_COLUMNS}
       from ${gate} left join viewer v on true left join lateral (
         select ${topicColumns('v.id')}
         from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
         where t.deleted_at is null ${scope} ${shape.where}
         order by ${shape.orderBy}
         limit $6 offset $7) p on true`,
      params,
    );
    const viewer = viewerOf(rows[0]);
    if (rows.length === 0) return { viewer, result: null };
    return { viewer, result: rows.filter((row) => row.id != null).map((row) => topicView(row as TopicRow)) };
  }

  async byUser(userId: number, order: UserTopicOrder, page: Page, viewer: Viewer | null): Promise<TopicView[]> {
    const rows = await this.sql.all<TopicRow>(
      `select ${TOPIC_COLUMNS}
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.user_id = $2 and t.deleted_at is null
       order by ${USER_TOPIC_ORDER[order]}
       limit $3 offset $4`,
      [viewer?.id ?? null, userId, page.limit, page.offset],
    );
    return rows.map(topicView);
  }

  async favoritesOf(userId: number, page: Page, viewer: Viewer | null): Promise<TopicView[]> {
    const rows = await this.sql.all<TopicRow>(
      `select ${TOPIC_COLUMNS}
       from topic_favorites f join topics t on t.id = f.topic_id join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where f.user_id = $2 and t.deleted_at is null
       order by f.created_at desc, t.id desc
       limit $3 offset $4`,
      [viewer?.id ?? null, userId, page.limit, page.offset],
    );
    return rows.map(topicView);
  }

  async detail(id: number, viewer: Viewer | null): Promise<TopicDetailView | null> {
    const rows = await this.sql.all<TopicDetailRow>(
      `select ${TOPIC_COLUMNS}, t.body, t.body_html
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.id = $2 and t.deleted_at is null`,
      [viewer?.id ?? null, id],
    );
    return rows[0] ? topicDetailView(rows[0]) : null;
  }

  async show(id: number, caller: CallerRef): Promise<Identified<ShownTopic | null>> {
    const rows = await this.sql.all<Partial<TopicDetailRow & TopicViewerMeta> & ViewerColumns & { marked: number }>(
      `with ${VIEWER_CTE},
       t as (update topics set hits = hits + 1 where id = $6 and deleted_at is null returning *),
       marked as (
         update notifications set read_at = now(), updated_at = now()
         where user_id = (select id from viewer) and topic_id = (select id from t) and read_at is null
         returning 1)
       select p.*, ${VIEWER_COLUMNS}, (select count(*)::int from marked) as marked
       from (select 1) gate left join viewer v on true left join lateral (
         select ${topicColumns('v.id')}, t.body, t.body_html,
           exists(select 1 from topic_follows f where f.topic_id = t.id and f.user_id = v.id) as followed,
           exists(select 1 from likes l where l.target_type = 'topic' and l.target_id = t.id and l.user_id = v.id) as liked,
           exists(select 1 from topic_favorites f where f.topic_id = t.id and f.user_id = v.id) as favorited
         from t join users u on u.id = t.user_id join nodes n on n.id = t.node_id) p on true`,
      [...callerParams(caller), id],
    );
    const row = rows[0]!;
    const viewer = viewerOf(row);
    if (row.id == null) return { viewer, result: null };
    const meta = { followed: row.followed!, liked: row.liked!, favorited: row.favorited! };
    return { viewer, result: { topic: topicDetailView(row as TopicDetailRow), meta, markedRead: row.marked > 0 } };
  }

  async detailInAnyState(id: number): Promise<{ topic: TopicDetailView; deleted: boolean } | null> {
    const rows = await this.sql.all<TopicDetailRow & { deleted: boolean }>(
      `select ${TOPIC_COLUMNS}, t.body, t.body_html, t.deleted_at is not null as deleted
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.id = $2`,
      [null, id],
    );
    return rows[0] ? { topic: topicDetailView(rows[0]), deleted: rows[0].deleted } : null;
  }
}

interface NodeRow {
  id: number;
  name: string;
  summary: string;
  sort: number;
  topics_count: number;
  hidden: boolean;
  updated_at: Timestamp;
}

const NODE_COLUMNS = 'id, name, summary, sort, topics_count, hidden, updated_at';

function nodeView(row: NodeRow): NodeView {
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    sort: row.sort,
    topicsCount: row.topics_count,
    hidden: row.hidden,
    updatedAt: toDate(row.updated_at),
  };
}

export class SqlNodeReadModel implements NodeReadModel {
  constructor(private readonly sql: Sql) {}

  async list(): Promise<NodeView[]> {
    const rows = await this.sql.all<NodeRow>(`select ${NODE_COLUMNS} from nodes order by sort desc, id`);
    return rows.map(nodeView);
  }

  async get(id: number): Promise<NodeView | null> {
    const rows = await this.sql.all<NodeRow>(`select ${NODE_COLUMNS} from nodes where id = $1`, [id]);
    return rows[0] ? nodeView(rows[0]) : null;
  }
}

interface UserRow {
  id: number;
  login: string;
  name: string | null;
  email: string;
  role: UserDetailView['role'];
  created_at: Timestamp;
  topics_count: number;
  replies_count: number;
  followers_count: number;
  following_count: number;
  favorites_count: number;
  location: string | null;
  company: string | null;
  twitter: string | null;
  github: string | null;
  website: string | null;
  tagline: string | null;
  bio: string | null;
}

const USER_COLUMNS = `id, login, name, email, role, created_at, topics_count, replies_count, followers_count, following_count,
  favorites_count, location, company, twitter, github, website, tagline, bio`;

function userDetailView(row: UserRow): UserDetailView {
  return {
    id: row.id,
    login: row.login,
    name: row.name,
    email: row.email,
    role: row.role,
    createdAt: toDate(row.created_at),
    topicsCount: row.topics_count,
    repliesCount: row.replies_count,
    followersCount: row.followers_count,
    followingCount: row.following_count,
    favoritesCount: row.favorites_count,
    location: row.location,
    company: row.company,
    twitter: row.twitter,
    github: row.github,
    website: row.website,
    tagline: row.tagline,
    bio: row.bio,
  };
}

export class SqlUserReadModel implements UserReadModel {
  constructor(private readonly sql: Sql) {}

  async byId(id: number): Promise<UserDetailView | null> {
    const rows = await this.sql.all<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
    return rows[0] ? userDetailView(rows[0]) : null;
  }

  async byLogin(login: string): Promise<UserDetailView | null> {
    if (!couldBeLogin(login)) return null;
    const rows = await this.sql.all<UserRow>(`select ${USER_COLUMNS} from users where lower(login) = lower($1)`, [login]);
    return rows[0] ? userDetailView(rows[0]) : null;
  }

  async relation(viewerId: number, userId: number): Promise<UserRelationView> {
    const rows = await this.sql.all<UserRelationView>(
      `select exists(select 1 from user_follows where follower_id = $1 and followee_id = $2) as followed,
              exists(select 1 from user_blocks where user_id = $1 and blocked_user_id = $2) as blocked`,
      [viewerId, userId],
    );
    return rows[0]!;
  }

  async follows(userId: number, direction: FollowDirection, page: Page): Promise<UserView[]> {
    const [listed, of] = direction === 'followers' ? ['follower_id', 'followee_id'] : ['followee_id', 'follower_id'];
    return this.sql.all<UserView>(
      `select u.id, u.login, u.name from user_follows f join users u on u.id = f.${listed}
       where f.${of} = $1 order by f.created_at desc, u.id desc limit $2 offset $3`,
      [userId, page.limit, page.offset],
    );
  }

  async list(offset: number, limit: number): Promise<UserDetailView[]> {
    const rows = await this.sql.all<UserRow>(`select ${USER_COLUMNS} from users order by id limit $1 offset $2`, [limit, offset]);
    return rows.map(userDetailView);
  }

  mostActive(since: Date, limit: number): Promise<UserView[]> {
    return this.sql.all<UserView>(
      `with recent as (
         select user_id, sum(replies)::int as replies from user_reply_months
         where month >= date_trunc('month', $1::timestamptz at time zone 'UTC')::date group by user_id)
       select u.id, u.login, u.name from users u left join recent r on r.user_id = u.id
       where u.role <> 'blocked' and u.login <> 'system'
       order by coalesce(r.replies, 0) desc, u.topics_count desc, u.id
       limit $2`,
      [since, limit],
    );
  }

  blockedBy(userId: number, page: Page): Promise<UserView[]> {
    return this.sql.all<UserView>(
      `select u.id, u.login, u.name from user_blocks b join users u on u.id = b.blocked_user_id
       where b.user_id = $1 order by b.created_at, u.id limit $2 offset $3`,
      [userId, page.limit, page.offset],
    );
  }
}

export interface ReplyRow {
  id: number;
  topic_id: number;
  body: string;
  body_html: string;
  action: ReplyView['action'];
  likes_count: number;
  liked_user_ids: number[];
  deleted: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  user_id: number;
  user_login: string;
  user_name: string | null;
}

export const REPLY_COLUMNS = `
  r.id, r.topic_id, r.body, r.body_html, r.action, r.likes_count, r.deleted_at is not null as deleted, r.created_at, r.updated_at,
  u.id as user_id, u.login as user_login, u.name as user_name,
  array(select l.user_id from likes l where l.target_type = 'reply' and l.target_id = r.id order by l.created_at, l.user_id)
    as liked_user_ids`;

export function replyView(row: ReplyRow): ReplyView {
  return {
    id: row.id,
    topicId: row.topic_id,
    body: row.body,
    bodyHtml: row.body_html,
    action: row.action,
    likesCount: row.likes_count,
    likedUserIds: row.liked_user_ids,
    deleted: row.deleted,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    user: { id: row.user_id, login: row.user_login, name: row.user_name },
  };
}

export class SqlReplyReadModel implements ReplyReadModel {
  constructor(private readonly sql: Sql) {}

  async listForTopic(
    topicId: number,
    page: { offset: number; limit: number },
    caller: CallerRef,
  ): Promise<Identified<ReplyPage | null>> {
    // No row at all when the topic is not visible; one row without a reply when its page is empty.
    const rows = await this.sql.all<Partial<ReplyRow & { liked: boolean }> & ViewerColumns>(
      `with ${VIEWER_CTE}
       select p.*, ${VIEWER_COLUMNS}
       from topics t left join viewer v on true left join lateral (
         select ${REPLY_COLUMNS},
           exists(select 1 from likes l where l.target_type = 'reply' and l.target_id = r.id and l.user_id = v.id) as liked
         from replies r join users u on u.id = r.user_id
         where r.topic_id = t.id
         order by r.id
         limit $7 offset $8) p on true
       where t.id = $6 and t.deleted_at is null`,
      [...callerParams(caller), topicId, page.limit, page.offset],
    );
    const viewer = viewerOf(rows[0]);
    if (rows.length === 0) return { viewer, result: null };
    const replies = rows.filter((row) => row.id != null) as (ReplyRow & { liked: boolean })[];
    return {
      viewer,
      result: { replies: replies.map(replyView), likedReplyIds: replies.filter((row) => row.liked).map((row) => row.id) },
    };
  }

  async detail(id: number): Promise<ReplyDetailView | null> {
    const rows = await this.sql.all<ReplyRow & { topic_title: string }>(
      `select ${REPLY_COLUMNS}, t.title as topic_title
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
       where r.id = $1 and r.deleted_at is null and t.deleted_at is null`,
      [id],
    );
    return rows[0] ? { ...replyView(rows[0]), topicTitle: rows[0].topic_title } : null;
  }

  async detailInAnyState(id: number): Promise<ReplyDetailView | null> {
    const rows = await this.sql.all<ReplyRow & { topic_title: string }>(
      `select ${REPLY_COLUMNS}, t.title as topic_title
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
       where r.id = $1`,
      [id],
    );
    return rows[0] ? { ...replyView(rows[0]), topicTitle: rows[0].topic_title } : null;
  }

  async byUser(userId: number, page: Page): Promise<ReplyDetailView[]> {
    const rows = await this.sql.all<ReplyRow & { topic_title: string }>(
      `select ${REPLY_COLUMNS}, t.title as topic_title
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
       where r.user_id = $1 and r.deleted_at is null and r.action is null and t.deleted_at is null
       order by r.id desc
       limit $2 offset $3`,
      [userId, page.limit, page.offset],
    );
    return rows.map((row) => ({ ...replyView(row), topicTitle: row.topic_title }));
  }
}

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

export class SqlNotificationReadModel implements NotificationReadModel {
  constructor(private readonly sql: Sql) {}

  async list(userId: number, page: { offset: number; limit: number }, viewer: Viewer): Promise<NotificationView[]> {
    const rows = await this.select('$1', 'nt.user_id = $2 order by nt.id desc limit $3 offset $4', [
      viewer.id,
      userId,
      page.limit,
      page.offset,
    ]);
    return rows.map((row) => row.notification);
  }

  async after(userId: number, afterId: number, limit: number, viewer: Viewer): Promise<NotificationView[]> {
    const rows = await this.select('$1', 'nt.user_id = $2 and nt.id > $3 order by nt.id limit $4', [
      viewer.id,
      userId,
      afterId,
      limit,
    ]);
    return rows.map((row) => row.notification);
  }

  byIdsOfAnyUser(ids: readonly number[]): Promise<{ userId: number; notification: NotificationView }[]> {
    return this.select('nt.user_id', 'nt.id = any($1::int[]) order by nt.id', [ids]);
  }

  /**
   * Related records come as JSON from scalar subqueries that reuse the same column lists as the other views;
   * `viewer` is the SQL for the id of who sees them.
   */
  private async select(
    viewer: string,
    where: string,
    params: unknown[],
  ): Promise<{ userId: number; notification: NotificationView }[]> {
    const rows = await this.sql.all<NotificationRow>(
      `select nt.id, nt.user_id, nt.type, nt.read_at is not null as read, nt.created_at, nt.updated_at, nt.mention_type,
         case when a.id is null then null else jsonb_build_object('id', a.id, 'login', a.login, 'name', a.name) end as actor,
         (select to_jsonb(x) from (
            select ${topicColumns(viewer)} from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
            where t.id = nt.topic_id and t.deleted_at is null) x) as topic,
         (select to_jsonb(x) from (
            select ${REPLY_COLUMNS} from replies r join users u on u.id = r.user_id
            where r.id = nt.reply_id and r.deleted_at is null) x) as reply,
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
    const rows = await this.sql.all<ViewerColumns & { count: number }>(
      `with ${VIEWER_CTE}
       select ${VIEWER_COLUMNS}, coalesce(c.count, 0) as count
       from viewer v left join notification_unread_counts c on c.user_id = v.id`,
      callerParams(caller),
    );
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
