import type { Sql } from '../database/sql.js';
import type {
  Page,
  ReadCounts,
  ReadMark,
  TopicShowing,
  TopicDetailView,
  TopicListQuery,
  TopicListType,
  TopicReadModel,
  TopicView,
  TopicViewerMeta,
  UserTopicOrder,
} from '../../../application/read-models.js';
import type { Viewer } from '../../../domain/users/role.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { CallerRef, Identified } from '../../../application/actor.js';
import { VIEWER_COLUMNS, VIEWER_CTE, type ViewerColumns, callerParams, mayBeSignedIn, viewerOf } from './callers.js';
import { type TopicRow, topicColumns, topicView } from './rows.js';
import {
  type ReadStateRow,
  hasUnreadReplies,
  maybeUnreadTopics,
  readMark,
  readStateOf,
  unreadRepliesAfter,
  withReadState,
} from './read-state.js';
import {
  SIGNED_OUT,
  type SqlReader,
  VIEWER,
  VIEWER_CTE_READER,
  forumTopic,
  nodeCondition,
  readerAs,
  readerOf,
  topicCondition,
} from './visibility.js';

/** Topics: the lists, a user's topics and favorites, one topic (rows.ts has what other reads share of them). */

/** With the viewer's id as the statement's first parameter. */
export const TOPIC_COLUMNS = topicColumns(readerOf('$1'));

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
  // The reader's own lists (contract §22): their conditions are the reader's (below); newest activity first.
  unread: { where: '', orderBy: 't.last_active_at desc, t.id desc' },
  new: { where: '', orderBy: 't.last_active_at desc, t.id desc' },
};

/** The topics `reader` finds in the lists across nodes (READERS.topicList), over `t` (topics) and `n` (its node). */
export const listedTopicFor = (reader: SqlReader) => topicCondition(READERS.topicList, reader, { topic: 't', node: 'n' });

/** A topic `reader` may open, over `t`. */
const openedBy = (reader: SqlReader) => topicCondition(READERS.post, reader, { topic: 't' });

/**
 * The default list of all nodes is one order, pinned topics first (newest pin first), then the rest as usual, which
 * offsets page through: a pinned topic comes once (contract §16a). Other types and a node's list keep their order.
 */
function pinsFirst(query: TopicListQuery): boolean {
  return query.type === 'last_actived' && query.nodeId === null;
}

export interface TopicDetailRow extends TopicRow {
  body: string;
  body_html: string;
}

export function topicDetailView(row: TopicDetailRow): TopicDetailView {
  return { ...topicView(row), body: row.body, bodyHtml: row.body_html };
}

/** A topic as its show gives it, with the caller's meta: a row of `showingOf`. */
export type ShowingRow = Partial<TopicDetailRow & TopicViewerMeta> & ViewerColumns & { unread: boolean; opened: boolean };

/**
 * The select of a topic's show for the caller of VIEWER_CTE (joined as `v`): the topic `t` of `from` where `where`
 * holds, with its detail, the caller's meta, whether they have unread notifications about it and whether they opened
 * it before (its read mark, by its key: read-state.ts). One row, with no
 * topic when none is found (the caller is still named).
 */
export const showingOf = (from: string, where: string) => `select p.*, ${VIEWER_COLUMNS}
       from (select 1) gate left join viewer v on true left join lateral (
         select ${topicColumns(VIEWER)}, t.body, t.body_html,
           exists(select 1 from topic_follows f where f.topic_id = t.id and f.user_id = v.id) as followed,
           exists(select 1 from likes l where l.target_type = 'topic' and l.target_id = t.id and l.user_id = v.id) as liked,
           exists(select 1 from topic_favorites f where f.topic_id = t.id and f.user_id = v.id) as favorited,
           exists(select 1 from notifications nt where nt.user_id = v.id and nt.topic_id = t.id and nt.read_at is null) as unread,
           v.id is null or ${readMark('v.id', 't.id')} is not null as opened
         from ${from} join users u on u.id = t.user_id join nodes n on n.id = t.node_id
         where ${where}) p on true`;

export function showing(row: ShowingRow): Identified<TopicShowing | null> {
  const viewer = viewerOf(row);
  if (row.id == null) return { viewer, result: null };
  const meta = { followed: row.followed!, liked: row.liked!, favorited: row.favorited! };
  return {
    viewer,
    result: { topic: topicDetailView(row as TopicDetailRow), meta, unreadNotifications: row.unread!, opened: row.opened! },
  };
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
      // No row at all when the node does not exist for the caller (contract §23: one they may not read does not);
      // one row without a topic when its page is empty.
      gate = `(select 1 from nodes gn where gn.id = $8 and ${nodeCondition(VIEWER_CTE_READER, 'gn')}) gate`;
      scope = `t.node_id = $8 and ${topicCondition(READERS.nodeTopics, VIEWER, { topic: 't' })}`;
      params.push(query.nodeId);
    } else if (mayBeSignedIn(caller)) {
      // Asking for NoPoint by node_id lists it (above); a token that turned out not to be live lists as the
      // signed-out do (`v.id` is null: NoPoint and every hidden node left out).
      scope = listedTopicFor(VIEWER);
    } else {
      scope = listedTopicFor(SIGNED_OUT);
    }
    let topics = 'topics t';
    let where = shape.where;
    if (query.type === 'unread') {
      // From the reader's marks (one range of their key), not from every topic: few are theirs.
      topics = `${maybeUnreadTopics(VIEWER)} t`;
      where = `and ${hasUnreadReplies(VIEWER, 't.id', 't.last_reply_id', 't')}`;
    } else if (query.type === 'new') {
      params.push(query.newSince);
      scope = `${scope} and ${topicCondition(READERS.newTopics, VIEWER, { topic: 't', node: 'n' })}`;
      where = `and t.created_at >= $${params.length} and ${readMark('v.id', 't.id')} is null`;
    }
    // A signed-in reader's list says where they left off (below), for which it reads each topic's last reply.
    const columns = mayBeSignedIn(caller) ? `${topicColumns(VIEWER)}, t.last_reply_id` : topicColumns(VIEWER);
    const from = `from ${topics} join users u on u.id = t.user_id join nodes n on n.id = t.node_id
         where ${scope} ${where}`;
    const page = pinsFirst(query)
      ? // Pinned topics (few, by their own index), newest pin first, then the rest in the usual order: the page's
        // window of that one order is within the first offset + limit of each group.
        `select * from (
           (select ${columns}, 0 as pin_group, t.suggested_at as sort_at ${from} and t.suggested_at is not null
            order by t.suggested_at desc, t.id desc limit $6::bigint + $7::bigint)
           union all
           (select ${columns}, 1 as pin_group, t.last_active_at as sort_at ${from} and t.suggested_at is null
            order by ${shape.orderBy} limit $6::bigint + $7::bigint)
         ) both_groups order by pin_group, sort_at desc, id desc limit $6 offset $7`
      : `select ${columns} ${from} order by ${shape.orderBy} limit $6 offset $7`;
    // A signed-in reader's list says where they left off in each topic of the page (contract §22).
    const listed = mayBeSignedIn(caller) ? withReadState(VIEWER, page) : page;
    const rows = await this.sql.all<Partial<TopicRow & ReadStateRow> & ViewerColumns>(
      `with ${VIEWER_CTE}
       select p.*, ${VIEWER_COLUMNS}
       from ${gate} left join viewer v on true left join lateral (${listed}) p on true`,
      params,
    );
    const viewer = viewerOf(rows[0]);
    if (rows.length === 0) return { viewer, result: null };
    // Each topic made in one shape, with its read state or without (a spread of a made one cost the list a few per cent).
    const readStates = viewer !== null;
    const shown = rows
      .filter((row) => row.id != null)
      .map((row) => topicView(row as TopicRow, readStates ? readStateOf(row as ReadStateRow) : undefined));
    return { viewer, result: shown };
  }

  async readCounts(caller: CallerRef, newSince: Date): Promise<Identified<ReadCounts | null>> {
    // The topics of the caller's lists (READERS.topicList): opened ones (their marks, one range of the key) with a
    // reply after the mark they have yet to read; and the recent ones (by creation, one range of its index) with no mark.
    const rows = await this.sql.all<ViewerColumns & { unread: number | null; new: number | null }>(
      `with ${VIEWER_CTE}
       select ${VIEWER_COLUMNS},
         (select count(*)::int from ${maybeUnreadTopics(VIEWER)} t join nodes n on n.id = t.node_id
          where ${listedTopicFor(VIEWER)}
            and ${hasUnreadReplies(VIEWER, 't.id', 't.last_reply_id', 't')}) as unread,
         (select count(*)::int from topics t join nodes n on n.id = t.node_id
          where t.created_at >= $6 and ${topicCondition(READERS.newTopics, VIEWER, { topic: 't', node: 'n' })}
            and ${readMark('v.id', 't.id')} is null) as new
       from (select 1) gate left join viewer v on true`,
      [...callerParams(caller), newSince],
    );
    const viewer = viewerOf(rows[0]);
    const row = rows[0]!;
    return { viewer, result: viewer === null ? null : { unread: row.unread ?? 0, new: row.new ?? 0 } };
  }

  async byUser(userId: number, order: UserTopicOrder, page: Page, viewer: Viewer | null): Promise<TopicView[]> {
    const rows = await this.sql.all<TopicRow>(
      `select ${TOPIC_COLUMNS}
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.user_id = $2 and ${openedBy(readerAs(viewer, '$1::int'))}
       order by ${USER_TOPIC_ORDER[order]}
       limit $3 offset $4`,
      [viewer?.id ?? null, userId, page.limit, page.offset],
    );
    return rows.map((row) => topicView(row));
  }

  async favoritesOf(userId: number, page: Page, viewer: Viewer | null): Promise<TopicView[]> {
    const rows = await this.sql.all<TopicRow>(
      `select ${TOPIC_COLUMNS}
       from topic_favorites f join topics t on t.id = f.topic_id join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where f.user_id = $2 and ${openedBy(readerAs(viewer, '$1::int'))}
       order by f.created_at desc, t.id desc
       limit $3 offset $4`,
      [viewer?.id ?? null, userId, page.limit, page.offset],
    );
    return rows.map((row) => topicView(row));
  }

  async detail(id: number, viewer: Viewer | null): Promise<TopicDetailView | null> {
    const rows = await this.sql.all<TopicDetailRow>(
      `select ${TOPIC_COLUMNS}, t.body, t.body_html
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.id = $2 and ${openedBy(readerAs(viewer, '$1::int'))}`,
      [viewer?.id ?? null, id],
    );
    return rows[0] ? topicDetailView(rows[0]) : null;
  }

  async details(ids: readonly number[], viewer: Viewer | null): Promise<TopicDetailView[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.all<TopicDetailRow>(
      `select ${TOPIC_COLUMNS}, t.body, t.body_html
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.id = any($2::int[]) and ${openedBy(readerAs(viewer, '$1::int'))}`,
      [viewer?.id ?? null, ids],
    );
    return rows.map(topicDetailView);
  }

  async show(id: number, caller: CallerRef): Promise<Identified<TopicShowing | null>> {
    const rows = await this.sql.all<ShowingRow>(
      `with ${VIEWER_CTE}
       ${showingOf('topics t', `t.id = $6 and ${openedBy(VIEWER)}`)}`,
      [...callerParams(caller), id],
    );
    return showing(rows[0]!);
  }

  /** Deleted, held or banned alike, but never a conversation (READERS.anyState): forumctl reads none (§24). */
  async detailInAnyState(id: number): Promise<{ topic: TopicDetailView; deleted: boolean } | null> {
    const rows = await this.sql.all<TopicDetailRow & { deleted: boolean }>(
      `select ${TOPIC_COLUMNS}, t.body, t.body_html, t.deleted_at is not null as deleted
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
       where t.id = $2 and ${forumTopic('t')}`,
      [null, id],
    );
    return rows[0] ? { topic: topicDetailView(rows[0]), deleted: rows[0].deleted } : null;
  }

  async markOf(topicId: number, userId: number): Promise<ReadMark | null> {
    // The mark by its key, the first unread reply after it (as read_state counts them: read-state.ts) by the topic's
    // replies in id order, and its floor (every reply keeps one, as floorOf counts), in one statement.
    const reader = readerOf('$2::int');
    const rows = await this.sql.all<{ last_read_reply_id: number | null; first_unread: number | null; floor: number }>(
      `select nullif(tr.last_read_reply_id, 0) as last_read_reply_id, fu.id as first_unread,
         (select count(*)::int from replies c where c.topic_id = $1 and c.id <= fu.id) as floor
       from topics t cross join lateral (select ${readMark('$2::int', 't.id')} as last_read_reply_id) tr
         left join lateral (select r.id ${unreadRepliesAfter(reader, '$1', 'tr')} order by r.id limit 1) fu on true
       where t.id = $1 and tr.last_read_reply_id is not null and ${openedBy(reader)}`,
      [topicId, userId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      lastReadReplyId: row.last_read_reply_id,
      firstUnread: row.first_unread === null ? null : { id: row.first_unread, floor: row.floor },
    };
  }
}
