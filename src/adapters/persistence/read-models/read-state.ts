import type { ReadState } from '../../../application/read-models.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { type SqlReader, replyCondition, topicCondition } from './visibility.js';

/**
 * Where each reader left off (contract §22), as the reads show it: the one place that says, in SQL, what a reader's
 * mark on a topic is and which replies are unread under it. Writing a mark is the write ports' (posts/reply-reading.ts,
 * posts/read-marks.ts, posts/topic-views.ts).
 *
 * A mark is a `topic_reads` row (its reply, or null: opened, no reply read yet), else the reader's horizon: an imported
 * member starts with every topic up to the import read up to it (read_horizons, one row per member), and a topic at or
 * below it has a row only once its mark moves past it, or with FORGOTTEN once it is marked unread.
 */

/** The mark of a topic below its reader's horizon that they marked unread: as if never opened. */
export const FORGOTTEN = -1;

/** Whether topic `topic` is at or below the horizon of user `user`. */
export const belowHorizon = (user: string, topic: string) =>
  `exists (select 1 from read_horizons h where h.user_id = ${user} and ${topic} <= h.topic_id)`;

/**
 * The mark user `user`'s horizon gives topic `topic`, as a mark of its own would be: the topic's last reply up to the
 * horizon, or 0 (opened, no reply read); null when the horizon does not reach it. A mark set by hand never falls below it.
 */
export const horizonMark = (user: string, topic: string) =>
  `(select coalesce((select max(r.id) from replies r where r.topic_id = ${topic} and r.id <= h.reply_id), 0)
    from read_horizons h where h.user_id = ${user} and ${topic} <= h.topic_id)`;

/** The mark of user `user` on topic `topic`: null, never opened; 0, opened with no reply read; else the last reply read. */
export const readMark = (user: string, topic: string) =>
  `nullif(coalesce((select coalesce(tr.last_read_reply_id, 0) from topic_reads tr where tr.user_id = ${user} and tr.topic_id = ${topic}),
                   ${horizonMark(user, topic)}), ${FORGOTTEN})`;

/**
 * The topics `reader` opened that may have replies they have yet to read, as topics' rows with their mark
 * (`last_read_reply_id`): those of their marks (one range of the key, each topic by its own), and those below their
 * horizon active since it (one range of the activity index, of topics that are there: a node's list's rule, which
 * the lists' own narrows). Each part joins its topics itself: joined to the two at once, a planner that cannot tell
 * how many rows the horizon's part brings hashed every topic to find a reader's thousand (300 ms at 100,000 topics).
 */
export const maybeUnreadTopics = (reader: SqlReader) => `(
  select mt.*, tr.last_read_reply_id from topic_reads tr join topics mt on mt.id = tr.topic_id
  where tr.user_id = ${reader.id} and tr.last_read_reply_id is distinct from ${FORGOTTEN}
  union all
  select ht.*, h.reply_id from read_horizons h join topics ht on ht.last_active_at >= h.read_at and ht.id <= h.topic_id
  where h.user_id = ${reader.id} and ${topicCondition(READERS.nodeTopics, reader, { topic: 'ht' })}
    and not exists (select 1 from topic_reads x where x.user_id = ${reader.id} and x.topic_id = ht.id))`;

/** The replies of `topic` after the mark `alias` that `reader` has yet to read (READERS.unread), over `r`. */
export const unreadRepliesAfter = (reader: SqlReader, topic: string, alias = 'rs') =>
  `from replies r where r.topic_id = ${topic} and r.id > coalesce(${alias}.last_read_reply_id, 0)
     and ${replyCondition(READERS.unread, reader, 'r')}`;

/**
 * Whether a topic has a reply after the mark `alias` that could be unread: its last counted reply (`lastReply`, the
 * topic's `last_reply_id`, never behind any published reply) is after the mark. Most topics a reader opened they
 * have read: this spares their replies a look.
 */
const after = (lastReply: string, alias: string) => `${lastReply} > coalesce(${alias}.last_read_reply_id, 0)`;

/** Whether topic `topic` (whose last reply is `lastReply`) has a reply `reader` has yet to read after the mark `alias`. */
export const hasUnreadReplies = (reader: SqlReader, topic: string, lastReply: string, alias = 'rs') =>
  `(${after(lastReply, alias)} and exists (select 1 ${unreadRepliesAfter(reader, topic, alias)}))`;

/**
 * A page of topics (`page`: a select of topics with their `id` and `last_reply_id`, in its order) with where the
 * reader left off in each: `read_mark`, their mark looked up by its key for each topic (null: never opened; 0: opened,
 * no reply read; a scalar subquery: joined instead, a generic plan reads every mark of the reader to find a page's
 * twenty), and the replies after it they have yet to read, counted only where the topic's last reply is past it.
 */
export const withReadState = (reader: SqlReader, page: string) => `
  select marked.*, case when marked.read_mark is null then null
      when coalesce(marked.last_reply_id, 0) <= marked.read_mark then 0
      else (select count(*)::int from replies r where r.topic_id = marked.id and r.id > marked.read_mark
              and ${replyCondition(READERS.unread, reader, 'r')}) end as unread_replies_count
  from (select pg.*, ${readMark(reader.id, 'pg.id')} as read_mark from (${page}) pg offset 0) marked`;

export interface ReadStateRow {
  read_mark: number | null;
  unread_replies_count: number | null;
}

export const readStateOf = (row: ReadStateRow): ReadState | null =>
  row.read_mark === null
    ? null
    : { lastReadReplyId: row.read_mark === 0 ? null : row.read_mark, unreadRepliesCount: row.unread_replies_count ?? 0 };
