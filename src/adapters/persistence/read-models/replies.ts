import type { Sql } from '../database/sql.js';
import type { Page, ReplyDetailView, ReplyPage, ReplyReadModel } from '../../../application/read-models.js';
import type { CallerRef, Identified } from '../../../application/actor.js';
import { VIEWER_COLUMNS, VIEWER_CTE, type ViewerColumns, callerParams, viewerOf } from './callers.js';
import { REPLY_COLUMNS, type ReplyRow, replyView } from './rows.js';
import {
  type SqlReader,
  VIEWER,
  forumTopic,
  moderatedCondition,
  readerAs,
  replyCondition,
  topicCondition,
} from './visibility.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { Viewer } from '../../../domain/users/role.js';

/** Replies: a topic's page of them, one reply, a user's replies. */

/** A reply `r` of topic `t` that `reader` may open. */
const openedBy = (reader: SqlReader) =>
  `${replyCondition(READERS.post, reader, 'r')} and ${topicCondition(READERS.post, reader, { topic: 't' })}`;

/**
 * Topic `t`'s node as `tn`, probed by its key. `offset 0` keeps it a nested loop: under a generic plan the planner
 * joins a node to one topic by reading and hashing every node, at each execution (a cost that grows with the nodes).
 */
export const NODE_OF_TOPIC = 'cross join lateral (select * from nodes n where n.id = t.node_id offset 0) tn';

/**
 * The select of a topic's page of replies for the caller of VIEWER_CTE (joined as `v`), with `$6` the topic, `$7`
 * the limit and `$8` the offset: no row at all when the topic is not visible; one row without a reply when its page
 * is empty. Every reply keeps its floor: one the reader may not open is masked where it is shown (wire.ts, by the
 * same policy).
 */
export const REPLY_PAGE = `select p.*, ${VIEWER_COLUMNS}, ${moderatedCondition(VIEWER.groups, 'tn')} as moderated
       from topics t ${NODE_OF_TOPIC} left join viewer v on true left join lateral (
         select ${REPLY_COLUMNS},
           exists(select 1 from likes l where l.target_type = 'reply' and l.target_id = r.id and l.user_id = v.id) as liked
         from replies r join users u on u.id = r.user_id
         where r.topic_id = t.id
         order by r.id
         limit $7 offset $8) p on true
       where t.id = $6 and ${topicCondition(READERS.post, VIEWER, { topic: 't', node: 'tn' })}`;

export type ReplyPageRow = Partial<ReplyRow & { liked: boolean }> & ViewerColumns & { moderated: boolean };

export const replyPageParams = (topicId: number, page: Page, caller: CallerRef) => [
  ...callerParams(caller),
  topicId,
  page.limit,
  page.offset,
];

/** The page of REPLY_PAGE's rows, for its caller. */
export function replyPageOf(rows: ReplyPageRow[]): Identified<ReplyPage | null> {
  const viewer = viewerOf(rows[0]);
  if (rows.length === 0) return { viewer, result: null };
  const replies = rows.filter((row) => row.id != null) as (ReplyRow & { liked: boolean })[];
  return {
    viewer,
    result: {
      replies: replies.map((row) => replyView(row, rows[0]!.moderated)),
      likedReplyIds: replies.filter((row) => row.liked).map((row) => row.id),
    },
  };
}

export class SqlReplyReadModel implements ReplyReadModel {
  constructor(private readonly sql: Sql) {}

  async listForTopic(topicId: number, page: Page, caller: CallerRef): Promise<Identified<ReplyPage | null>> {
    const rows = await this.sql.all<ReplyPageRow>(`with ${VIEWER_CTE} ${REPLY_PAGE}`, replyPageParams(topicId, page, caller));
    return replyPageOf(rows);
  }

  async floorOf(topicId: number, replyId: number): Promise<number> {
    const [row] = await this.sql.all<{ floor: number }>(
      'select count(*)::int as floor from replies where topic_id = $1 and id <= $2',
      [topicId, replyId],
    );
    return row?.floor ?? 0;
  }

  /** With whether the viewer moderates its node (contract §23), for its abilities: what they may do to it. */
  async detail(id: number, viewer: Viewer | null): Promise<ReplyDetailView | null> {
    const reader = readerAs(viewer, '$2::int');
    const rows = await this.sql.all<ReplyRow & { topic_title: string; moderated: boolean }>(
      `select ${REPLY_COLUMNS}, t.title as topic_title, ${moderatedCondition(reader.groups, 'tn')} as moderated
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id join nodes tn on tn.id = t.node_id
       where r.id = $1 and ${openedBy(reader)}`,
      [id, viewer?.id ?? null],
    );
    const row = rows[0];
    return row ? { ...replyView(row, row.moderated), topicTitle: row.topic_title } : null;
  }

  /**
   * Deleted, held or a system event alike, but never a conversation's message (READERS.anyState): forumctl and
   * webhooks read none (§24). Review will show a flagged message to the administrators who review it, by a read of
   * its own (read-models/review.ts), not this one.
   */
  async detailInAnyState(id: number): Promise<ReplyDetailView | null> {
    const rows = await this.sql.all<ReplyRow & { topic_title: string }>(
      `select ${REPLY_COLUMNS}, t.title as topic_title
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
       where r.id = $1 and ${forumTopic('t')}`,
      [id],
    );
    return rows[0] ? { ...replyView(rows[0]), topicTitle: rows[0].topic_title } : null;
  }

  async byUser(userId: number, page: Page, viewer: Viewer | null): Promise<ReplyDetailView[]> {
    const reader = readerAs(viewer, '$4::int');
    const rows = await this.sql.all<ReplyRow & { topic_title: string }>(
      `select ${REPLY_COLUMNS}, t.title as topic_title
       from replies r join users u on u.id = r.user_id join topics t on t.id = r.topic_id
       where r.user_id = $1 and r.action is null and ${openedBy(reader)}
       order by r.id desc
       limit $2 offset $3`,
      [userId, page.limit, page.offset, viewer?.id ?? null],
    );
    return rows.map((row) => ({ ...replyView(row), topicTitle: row.topic_title }));
  }
}
