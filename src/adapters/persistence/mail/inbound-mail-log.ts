import type { InboundMailEntry, InboundMailLog, InboundMailView } from '../../../application/mail/inbound.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

interface InboundRow {
  id: string;
  received_at: Timestamp;
  via: InboundMailEntry['via'];
  message_id: string | null;
  sender: string | null;
  user_id: number | null;
  login: string | null;
  topic_id: number | null;
  outcome: InboundMailEntry['outcome'];
  reason: string | null;
  reply_id: number | null;
  size: number;
}

/**
 * The record of received mail (inbound_mails). Inside a unit of work the statements run on its transaction, so a
 * posted mail's record commits or rolls back with its reply. The partial unique index on posted Message-IDs
 * decides a race between two copies of one mail: the second waits for the first's transaction, then finds the
 * conflict.
 */
export class SqlInboundMailLog implements InboundMailLog {
  constructor(private readonly sql: Sql) {}

  async record(entry: InboundMailEntry): Promise<boolean> {
    const inserted = await this.sql.count(
      `insert into inbound_mails (received_at, via, message_id, sender, user_id, topic_id, outcome, reason, reply_id, size)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (message_id) where outcome = 'posted' and message_id is not null do nothing`,
      [
        entry.receivedAt,
        entry.via,
        entry.messageId,
        entry.sender,
        entry.userId,
        entry.topicId,
        entry.outcome,
        entry.reason,
        entry.replyId,
        entry.size,
      ],
    );
    return inserted === 1;
  }

  async wasPosted(messageId: string): Promise<boolean> {
    const row = await this.sql.one(
      `select 1 from inbound_mails where message_id = $1 and outcome = 'posted' and message_id is not null`,
      [messageId],
    );
    return row !== null;
  }

  async list(limit: number): Promise<InboundMailView[]> {
    const rows = await this.sql.all<InboundRow>(
      `select m.id, m.received_at, m.via, m.message_id, m.sender, m.user_id, u.login, m.topic_id, m.outcome, m.reason,
         m.reply_id, m.size
       from inbound_mails m left join users u on u.id = m.user_id
       order by m.received_at desc, m.id desc
       limit $1`,
      [limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      receivedAt: toDate(row.received_at),
      via: row.via,
      messageId: row.message_id,
      sender: row.sender,
      userId: row.user_id,
      login: row.login,
      topicId: row.topic_id,
      outcome: row.outcome,
      reason: row.reason,
      replyId: row.reply_id,
      size: row.size,
    }));
  }
}
