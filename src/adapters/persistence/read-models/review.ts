import type { ReviewItemView, ReviewReadModel, ReviewScope } from '../../../application/review/ports.js';
import type { Page, UserView } from '../../../application/read-models.js';
import type { FlagReason, PostRef, ReviewResolution } from '../../../domain/events.js';
import type { ReviewItem } from '../../../domain/review/review-item.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import { SIGNED_OUT, forumTopic } from './visibility.js';
import { REPLY_COLUMNS, type ReplyRow, replyView, topicColumns } from './rows.js';
import { type TopicDetailRow, topicDetailView } from './topics.js';

interface ItemRow {
  id: number;
  kind: ReviewItem['kind'];
  target_type: PostRef['targetType'];
  target_id: number;
  status: ReviewItem['status'];
  resolution: ReviewResolution | null;
  created_at: Timestamp;
  resolved_at: Timestamp | null;
  user: UserView;
  resolved_by: UserView | null;
  topic: (TopicDetailRow & { deleted: boolean }) | null;
  reply: (ReplyRow & { topic_title: string }) | null;
  message: { id: number; body: string; body_html: string; user: UserView; created_at: Timestamp; deleted: boolean } | null;
  flags: { user: UserView; reason: FlagReason; message: string | null; created_at: string }[];
}

const user = (alias: string) => `jsonb_build_object('id', ${alias}.id, 'login', ${alias}.login, 'name', ${alias}.name)`;

/**
 * The queue as administrators read it, one statement a page: each item with its post as an administrator sees it
 * (deleted, held or hidden alike: the reviewer must see what was flagged), its author, its flags in order and who
 * resolved it. The post comes as JSON from scalar subqueries that reuse the column lists of every other view.
 */
const ITEMS = (where: string) => `
  select i.id, i.kind, i.target_type, i.target_id, i.status, i.resolution, i.created_at, i.resolved_at,
    ${user('a')} as user,
    case when rb.id is null then null else ${user('rb')} end as resolved_by,
    (select to_jsonb(x) from (
       select ${topicColumns(SIGNED_OUT)}, t.body, t.body_html, t.deleted_at is not null as deleted
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where i.target_type = 'Topic' and t.id = i.target_id) x) as topic,
    (select to_jsonb(x) from (
       select ${REPLY_COLUMNS}, t.title as topic_title
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
       where i.target_type = 'Reply' and r.id = i.target_id and ${forumTopic('t')}) x) as reply,
    (select jsonb_build_object('id', m.id, 'body', m.body, 'body_html', m.body_html, 'user', ${user('mu')},
                               'created_at', m.created_at, 'deleted', m.deleted_at is not null)
     from (select t.id, t.user_id, t.body, t.body_html, t.created_at, t.deleted_at from topics t
           where i.target_type = 'Topic' and t.id = i.target_id and t.node_id is null
           union all
           select r.id, r.user_id, r.body, r.body_html, r.created_at, r.deleted_at from replies r join topics t on t.id = r.topic_id
           where i.target_type = 'Reply' and r.id = i.target_id and t.node_id is null) m
       join users mu on mu.id = m.user_id) as message,
    coalesce((
      select jsonb_agg(jsonb_build_object('user', ${user('fu')}, 'reason', f.reason, 'message', f.message,
                                          'created_at', f.created_at) order by f.id)
      from flags f join users fu on fu.id = f.user_id where f.review_item_id = i.id), '[]'::jsonb) as flags
  from review_items i join users a on a.id = i.user_id left join users rb on rb.id = i.resolved_by_id
  ${where}`;

/** The item's post is in one of the nodes `$n` names (a node's moderators review only there, contract §23). */
const IN_NODES = (param: string) => `exists (
  select 1 from topics st where st.node_id = any(${param}::int[]) and st.id = case when i.target_type = 'Topic' then i.target_id
    else (select sr.topic_id from replies sr where sr.id = i.target_id) end)`;

export class SqlReviewReadModel implements ReviewReadModel {
  constructor(private readonly sql: Sql) {}

  async list(status: ReviewItem['status'], page: Page, scope: ReviewScope): Promise<ReviewItemView[]> {
    const order = status === 'pending' ? 'i.created_at, i.id' : 'i.resolved_at desc, i.id desc';
    const where = scope === 'all' ? 'where i.status = $1' : `where i.status = $1 and ${IN_NODES('$4')}`;
    const rows = await this.sql.all<ItemRow>(`${ITEMS(where)} order by ${order} offset $2 limit $3`, [
      status,
      page.offset,
      page.limit,
      ...(scope === 'all' ? [] : [scope.nodeIds]),
    ]);
    return rows.map(itemView);
  }

  async get(id: number, scope: ReviewScope): Promise<ReviewItemView | null> {
    const where = scope === 'all' ? 'where i.id = $1' : `where i.id = $1 and ${IN_NODES('$2')}`;
    const row = await this.sql.one<ItemRow>(ITEMS(where), [id, ...(scope === 'all' ? [] : [scope.nodeIds])]);
    return row && itemView(row);
  }
}

function itemView(row: ItemRow): ReviewItemView {
  return {
    id: row.id,
    kind: row.kind,
    targetType: row.target_type,
    targetId: row.target_id,
    topic: row.topic ? { view: topicDetailView(row.topic), deleted: row.topic.deleted } : null,
    reply: row.reply ? { ...replyView(row.reply), topicTitle: row.reply.topic_title } : null,
    message: row.message
      ? {
          id: row.message.id,
          body: row.message.body,
          bodyHtml: row.message.body_html,
          user: row.message.user,
          createdAt: toDate(row.message.created_at),
          deleted: row.message.deleted,
        }
      : null,
    user: row.user,
    flags: row.flags.map((flag) => ({
      user: flag.user,
      reason: flag.reason,
      message: flag.message,
      createdAt: toDate(flag.created_at),
    })),
    status: row.status,
    resolution: row.resolution,
    createdAt: toDate(row.created_at),
    resolvedAt: toDate(row.resolved_at),
    resolvedBy: row.resolved_by,
  };
}
