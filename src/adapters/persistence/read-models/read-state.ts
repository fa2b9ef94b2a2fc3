import type { ReadState } from '../../../application/read-models.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { type SqlReader, replyCondition } from './visibility.js';

/**
 * Where each reader left off (contract §22), as the reads show it: the one place that says, in SQL, what a reader's
 * mark on a topic is and which replies are unread under it. Writing a mark is the write ports' (posts/topic-reads.ts).
 */

/**
 * The reader's mark on topic `topic`, as a lateral row `alias` (no row: never opened): `last_read_reply_id`. Looked up
 * by its key for each topic (`limit 1` keeps the subquery apart): joined instead, a generic plan reads every mark of
 * the reader to find a page's twenty.
 */
export const markOf = (reader: SqlReader, topic: string, alias = 'rs') =>
  `left join lateral (select true as opened, tr.last_read_reply_id from topic_reads tr
     where tr.user_id = ${reader.id} and tr.topic_id = ${topic} limit 1) ${alias} on true`;

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

/** A read state's columns, for a topic `topic` (last reply `lastReply`) with its mark joined as `alias` (markOf). */
export const readStateColumns = (reader: SqlReader, topic: string, lastReply: string, alias = 'rs') => `
  coalesce(${alias}.opened, false) as read_opened, ${alias}.last_read_reply_id,
  case when not ${alias}.opened then null when not ${after(lastReply, alias)} then 0
    else (select count(*)::int ${unreadRepliesAfter(reader, topic, alias)}) end as unread_replies_count`;

export interface ReadStateRow {
  read_opened: boolean;
  last_read_reply_id: number | null;
  unread_replies_count: number | null;
}

export const readStateOf = (row: ReadStateRow): ReadState | null =>
  row.read_opened ? { lastReadReplyId: row.last_read_reply_id, unreadRepliesCount: row.unread_replies_count ?? 0 } : null;
