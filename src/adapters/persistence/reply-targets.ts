import type { ReplyTarget, ReplyTargets } from '../../application/replies/reply-targets.js';
import type { Sql } from './sql.js';

interface TargetRow {
  topic_id: number | null;
  topic_user_id: number | null;
  topic_title: string | null;
  topic_closed: boolean | null;
  reply_id: number | null;
  replier_login: string;
  replier_name: string | null;
}

/** The topic and the replier in one statement; the reply's id is drawn for a topic that exists. */
export class SqlReplyTargets implements ReplyTargets {
  constructor(private readonly sql: Sql) {}

  async find(topicId: number, replierId: number): Promise<ReplyTarget | null> {
    const row = await this.sql.one<TargetRow>(
      `with topic as (select id, user_id, title, closed_at is not null as closed from topics where id = $1 and deleted_at is null)
       select t.id as topic_id, t.user_id as topic_user_id, t.title as topic_title, t.closed as topic_closed,
         case when t.id is not null then nextval('replies_id_seq')::int end as reply_id,
         u.login as replier_login, u.name as replier_name
       from users u left join topic t on true
       where u.id = $2`,
      [topicId, replierId],
    );
    if (!row || row.topic_id === null) return null;
    return {
      topic: { id: row.topic_id, userId: row.topic_user_id!, title: row.topic_title!, closed: row.topic_closed! },
      replier: { id: replierId, login: row.replier_login, name: row.replier_name },
      replyId: row.reply_id!,
    };
  }
}
