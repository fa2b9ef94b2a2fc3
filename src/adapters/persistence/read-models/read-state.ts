import type { ReadState } from '../../../application/read-models.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { type SqlReader, replyCondition } from './visibility.js';

/**
 * Where each reader left off (contract §22), as the reads show it: the one place that says, in SQL, what a reader's
 * mark on a topic is and which replies are unread under it. Writing a mark is the write ports' (posts/topic-reads.ts).
 */

/** The reader's mark on topic `topic`, as a lateral row `alias` (no row: never opened): `last_read_reply_id`. */
export const markOf = (reader: SqlReader, topic: string, alias = 'rs') =>
  `left join lateral (select true as opened, tr.last_read_reply_id from topic_reads tr
     where tr.user_id = ${reader.id} and tr.topic_id = ${topic}) ${alias} on true`;

/** The replies of `topic` after the mark `alias` that `reader` has yet to read (READERS.unread), over `r`. */
export const unreadRepliesAfter = (reader: SqlReader, topic: string, alias = 'rs') =>
  `from replies r where r.topic_id = ${topic} and r.id > coalesce(${alias}.last_read_reply_id, 0)
     and ${replyCondition(READERS.unread, reader, 'r')}`;

/** A read state's columns, for a topic `topic` with its mark joined as `alias` (markOf). */
export const readStateColumns = (reader: SqlReader, topic: string, alias = 'rs') => `
  coalesce(${alias}.opened, false) as read_opened, ${alias}.last_read_reply_id,
  case when ${alias}.opened then (select count(*)::int ${unreadRepliesAfter(reader, topic, alias)}) end as unread_replies_count`;

export interface ReadStateRow {
  read_opened: boolean;
  last_read_reply_id: number | null;
  unread_replies_count: number | null;
}

export const readStateOf = (row: ReadStateRow): ReadState | null =>
  row.read_opened ? { lastReadReplyId: row.last_read_reply_id, unreadRepliesCount: row.unread_replies_count ?? 0 } : null;
