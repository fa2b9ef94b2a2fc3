import type { ConversationReadModel, ConversationView } from '../../../application/conversations/ports.js';
import type { Page, UserView } from '../../../application/read-models.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import { readerOf, replyCondition, topicCondition } from '../read-models/visibility.js';

/** The conditions of the policy's conversation readers for the user `id` (an SQL expression), their role looked up. */
const shownTo = (id: string, topic = 't') => topicCondition(READERS.conversation, readerOf(id), { topic });
const unreadBy = (id: string) => replyCondition(READERS.conversationUnread, readerOf(id), 'r');
/** The reader of most statements here: the user `$1`. */
export const shown = shownTo('$1::int');

/**
 * The ids of the conversations the user `id` may be in, found by their own rows and their groups' (two index probes),
 * each then to be held to the visibility policy's conversation reader, which decides: what reads someone's
 * conversations (the list, the count, the account export) never scans conversations that are not theirs.
 */
export const conversationsMaybeOf = (id: string) => `
  select topic_id from conversation_participants where user_id = ${id} and left_at is null
  union
  select cp.topic_id from group_members gm join conversation_participants cp on cp.group_id = gm.group_id where gm.user_id = ${id}`;
const mineOf = (id: string) => `(${conversationsMaybeOf(id)})`;

/** The reader's, held to `shown` where they are read. */
const MINE = `mine as ${mineOf('$1')}`;

/**
 * Messages the user `id` has yet to read of the conversation `t` (their mark `tr`): every one after their mark, and
 * the opening one when they never opened it.
 */
const unreadOf = (id: string) => `(case when tr.user_id is null and t.user_id <> ${id} then 1 else 0 end
  + (select count(*)::int from replies r where r.topic_id = t.id and r.id > coalesce(tr.last_read_reply_id, 0)
     and ${unreadBy(id)}))`;
const UNREAD = unreadOf('$1');

export const COLUMNS = `t.id, t.title, t.created_at, t.last_active_at as updated_at, t.replied_at, t.replies_count, t.last_reply_id,
  t.last_reply_user_id, t.last_reply_user_login, u.id as user_id, u.login as user_login, u.name as user_name,
  coalesce((select json_agg(json_build_object('id', pu.id, 'login', pu.login, 'name', pu.name) order by cp.created_at, pu.id)
            from conversation_participants cp join users pu on pu.id = cp.user_id
            where cp.topic_id = t.id and cp.left_at is null), '[]') as participants,
  coalesce((select json_agg(json_build_object('name', g.name, 'title', g.title) order by g.name)
            from conversation_participants cp join groups g on g.id = cp.group_id where cp.topic_id = t.id), '[]') as groups,
  ${UNREAD} as unread`;

export interface ConversationRow {
  id: number;
  title: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  replied_at: Timestamp | null;
  replies_count: number;
  last_reply_id: number | null;
  last_reply_user_id: number | null;
  last_reply_user_login: string | null;
  user_id: number;
  user_login: string;
  user_name: string | null;
  participants: UserView[];
  groups: { name: string; title: string }[];
  unread: number;
}

export function conversationView(row: ConversationRow): ConversationView {
  return {
    id: row.id,
    title: row.title,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    repliedAt: toDate(row.replied_at),
    repliesCount: row.replies_count,
    lastReplyId: row.last_reply_id,
    lastReplyUserId: row.last_reply_user_id,
    lastReplyUserLogin: row.last_reply_user_login,
    user: { id: row.user_id, login: row.user_login, name: row.user_name },
    participants: row.participants,
    groups: row.groups,
    unreadRepliesCount: row.unread,
  };
}

export class SqlConversationReadModel implements ConversationReadModel {
  constructor(private readonly sql: Sql) {}

  async list(readerId: number, page: Page): Promise<ConversationView[]> {
    const rows = await this.sql.all<ConversationRow>(
      `with ${MINE}
       select ${COLUMNS} from mine join topics t on t.id = mine.topic_id join users u on u.id = t.user_id
         left join topic_reads tr on tr.user_id = $1 and tr.topic_id = t.id
       where ${shown}
       order by t.last_active_at desc, t.id desc limit $2 offset $3`,
      [readerId, page.limit, page.offset],
    );
    return rows.map(conversationView);
  }

  async unreadCount(readerId: number): Promise<number> {
    return (await this.unreadCounts([readerId])).get(readerId) ?? 0;
  }

  async unreadCounts(readerIds: readonly number[]): Promise<Map<number, number>> {
    const rows = await this.sql.all<{ id: number; count: number }>(
      `select reader.id, (
         select count(*)::int from ${mineOf('reader.id')} mine join topics t on t.id = mine.topic_id
           left join topic_reads tr on tr.user_id = reader.id and tr.topic_id = t.id
         where ${shownTo('reader.id')} and ${unreadOf('reader.id')} > 0) as count
       from unnest($1::int[]) as reader(id)`,
      [readerIds],
    );
    return new Map(rows.map((row) => [row.id, row.count]));
  }
}
