import type { NodeView, ReadState, ReplyView, TopicView } from '../../../application/read-models.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import type { Grade } from '../../../domain/topics/topic.js';
import type { Visibility } from '../../../domain/shared/post.js';
import { type SqlReader, countedReply, moderatedCondition } from './visibility.js';

/**
 * The read side (this folder): one SQL statement per request, straight into views. Every value travels as a bound
 * parameter; the only SQL chosen in code is from closed tables. Statements that show topics bind the viewer's id
 * (or null) as `$1`: TOPIC_COLUMNS (topics.ts) reads it to tell whether the viewer's topic has replies from others.
 *
 * Here: the rows that more than one read shares (a topic, a reply, a node, wherever they appear: lists,
 * notifications, search results), each as its column list, its row and its view.
 */

/**
 * A topic's columns; `viewer` is the SQL for the viewing user's id and groups (the author's abilities depend on the
 * first, whether they moderate its node on the second).
 */
export const topicColumns = ({ id: viewer, groups }: Pick<SqlReader, 'id' | 'groups'>) => `
  t.id, t.title, t.created_at, t.updated_at, t.replied_at, t.replies_count, t.node_id, n.name as node_name,
  t.last_reply_user_id, t.last_reply_user_login, t.grade, t.likes_count, t.hits, t.lock_node, t.suggested_at, t.closed_at,
  t.visibility, u.id as user_id, u.login as user_login, u.name as user_name,
  case when t.user_id = ${viewer} then exists(
    select 1 from replies r where r.topic_id = t.id and r.user_id <> t.user_id and ${countedReply('r')}
  ) else false end as has_replies_from_others, ${moderatedCondition(groups, 'n')} as moderated`;

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
  grade: Grade;
  likes_count: number;
  hits: number;
  lock_node: boolean;
  suggested_at: Timestamp | null;
  closed_at: Timestamp | null;
  visibility: Visibility;
  user_id: number;
  user_login: string;
  user_name: string | null;
  has_replies_from_others: boolean;
  moderated: boolean;
}

/** A topic's view; `readState` for a signed-in reader's list (undefined elsewhere: no such field on the wire). */
export function topicView(row: TopicRow, readState?: ReadState | null): TopicView {
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
    suggestedAt: toDate(row.suggested_at),
    closedAt: toDate(row.closed_at),
    visibility: row.visibility,
    user: { id: row.user_id, login: row.user_login, name: row.user_name },
    hasRepliesFromOthers: row.has_replies_from_others,
    moderated: row.moderated,
    readState,
  };
}

export interface ReplyRow {
  id: number;
  topic_id: number;
  body: string;
  body_html: string;
  action: ReplyView['action'];
  visibility: Visibility;
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
  r.id, r.topic_id, r.body, r.body_html, r.action, r.visibility, r.likes_count, r.deleted_at is not null as deleted,
  r.created_at, r.updated_at,
  u.id as user_id, u.login as user_login, u.name as user_name,
  array(select l.user_id from likes l where l.target_type = 'reply' and l.target_id = r.id order by l.created_at, l.user_id)
    as liked_user_ids`;

/** A reply's view; `moderated`: whether the reader moderates its node (a page's rows share their topic's answer). */
export function replyView(row: ReplyRow, moderated = false): ReplyView {
  // Every view has the same fields in the same order: the wire reads each page's replies through one shape.
  return {
    id: row.id,
    topicId: row.topic_id,
    body: row.body,
    bodyHtml: row.body_html,
    action: row.action,
    visibility: row.visibility,
    likesCount: row.likes_count,
    likedUserIds: row.liked_user_ids,
    deleted: row.deleted,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    user: { id: row.user_id, login: row.user_login, name: row.user_name },
    moderated,
  };
}

export interface NodeRow {
  id: number;
  name: string;
  summary: string;
  sort: number;
  topics_count: number;
  hidden: boolean;
  updated_at: Timestamp;
  section_id: number | null;
  section_name: string | null;
  moderated?: boolean;
}

/** Unqualified, from `nodes` (the section's name by a subselect, so that any statement can list them). */
export const NODE_COLUMNS = `id, name, summary, sort, topics_count, hidden, updated_at, section_id,
  (select s.name from sections s where s.id = section_id) as section_name`;

export function nodeView(row: NodeRow): NodeView {
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    sort: row.sort,
    topicsCount: row.topics_count,
    hidden: row.hidden,
    updatedAt: toDate(row.updated_at),
    section: row.section_id === null ? null : { id: row.section_id, name: row.section_name! },
    ...(row.moderated === undefined ? {} : { moderated: row.moderated }),
  };
}
