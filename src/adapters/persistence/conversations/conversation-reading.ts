import type { ConversationDetailView, ConversationReading } from '../../../application/conversations/ports.js';
import type { Page, ReplyPage } from '../../../application/read-models.js';
import type { Sql } from '../database/sql.js';
import { FORWARD } from '../posts/read-marks.js';
import { REPLY_COLUMNS, type ReplyRow, replyView } from '../read-models/rows.js';
import { COLUMNS, type ConversationRow, conversationView, shown } from './conversation-read-model.js';

/**
 * A conversation read by a participant (contract §24), held to the policy's conversation reader as the list is
 * (conversation-read-model.ts), each read moving the reader's mark (contract §22) in its own statement or the next.
 */
export class SqlConversationReading implements ConversationReading {
  constructor(private readonly sql: Sql) {}

  async open(id: number, readerId: number): Promise<ConversationDetailView | null> {
    // Opened in the statement that reads it: the reader's mark is there from the first opening on (contract §22).
    const row = await this.sql.one<ConversationRow & { body: string; body_html: string }>(
      `with found as (
         select ${COLUMNS}, t.body, t.body_html from topics t join users u on u.id = t.user_id
           left join topic_reads tr on tr.user_id = $1 and tr.topic_id = t.id
         where t.id = $2 and ${shown}),
       opened as (insert into topic_reads (user_id, topic_id) select $1, id from found on conflict do nothing)
       select * from found`,
      [readerId, id],
    );
    return row && { ...conversationView(row), body: row.body, bodyHtml: row.body_html };
  }

  async replies(id: number, page: Page, readerId: number): Promise<ReplyPage | null> {
    const [found] = await this.sql.all<{ found: boolean }>(
      `select exists (select 1 from topics t where t.id = $2 and ${shown}) as found`,
      [readerId, id],
    );
    if (!found!.found) return null;
    const rows = await this.sql.all<ReplyRow>(
      `select ${REPLY_COLUMNS} from replies r join users u on u.id = r.user_id
       where r.topic_id = $1 order by r.id limit $2 offset $3`,
      [id, page.limit, page.offset],
    );
    const last = rows.at(-1);
    if (last) {
      await this.sql.all(`insert into topic_reads as tr (user_id, topic_id, last_read_reply_id) values ($1, $2, $3) ${FORWARD}`, [
        readerId,
        id,
        last.id,
      ]);
    }
    return { replies: rows.map((row) => replyView(row)), likedReplyIds: [] };
  }
}
