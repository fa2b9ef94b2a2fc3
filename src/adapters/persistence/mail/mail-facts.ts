import type {
  MailAccount,
  MailFacts,
  MailTokenRow,
  PendingNotice,
  ConversationMessages,
  PendingMessage,
  TopicNotices,
} from '../../../application/mail/deliver-mail.js';
import type { DigestTopic } from '../../../application/mail/digests.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { SIGNED_OUT, memberAt, readerOf, replyCondition, topicCondition } from '../read-models/visibility.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

interface TokenRow {
  id: string;
  user_id: number;
  purpose: MailTokenRow['purpose'];
  email: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

interface DigestTopicRow {
  id: number;
  title: string;
  node_name: string;
  user_login: string;
  user_name: string | null;
  replies_count: number;
  likes_count: number;
  text: string;
}

/** Characters of a topic's text a digest reads: more than its excerpt shows, a bound on what is fetched. */
const DIGEST_TEXT_CHARACTERS = 600;

/** What a mail says, read when it is sent: the account, the link's row, a digest's topics. */
export class SqlMailFacts implements MailFacts {
  constructor(private readonly sql: Sql) {}

  account(userId: number): Promise<MailAccount | null> {
    return this.sql.one<MailAccount>(
      `select id, login, name, email, locale, state, email_notifications as "emailNotifications",
              email_digest as "emailDigest", email_messages as "emailMessages", password_hash is not null as "hasPassword"
       from users where id = $1`,
      [userId],
    );
  }

  async digestTopics(userId: number, since: Date, limit: number): Promise<DigestTopic[]> {
    // What a digest may carry to this member (READERS.digest); their own topics are no news to them.
    // `last_active_at >= since` is implied by `created_at >= since` (activity starts with the topic) and lets the scan
    // walk the activity index over the period's topics only. The text is the one the search index keeps of the body
    // (what a reader sees, on one line), or the source if it has none yet.
    const rows = await this.sql.all<DigestTopicRow>(
      `select t.id, t.title, n.name as node_name, u.login as user_login, u.name as user_name, t.replies_count,
              t.likes_count, left(coalesce(d.text, t.body), $4) as text
       from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
         left join search_documents d on d.topic_id = t.id and d.reply_id is null
       where ${topicCondition(READERS.digest, memberAt('$1::int'), { topic: 't', node: 'n' })} and t.user_id <> $1
         and t.last_active_at >= $2 and t.created_at >= $2
       order by t.replies_count + t.likes_count desc, t.id desc
       limit $3`,
      [userId, since.toISOString(), limit, DIGEST_TEXT_CHARACTERS],
    );
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      nodeName: row.node_name,
      author: { login: row.user_login, name: row.user_name },
      repliesCount: row.replies_count,
      likesCount: row.likes_count,
      text: row.text,
    }));
  }

  async token(id: string): Promise<MailTokenRow | null> {
    const row = await this.sql.one<TokenRow>(
      'select id, user_id, purpose, email, expires_at, used_at from account_tokens where id = $1',
      [id],
    );
    if (!row) return null;
    return {
      id: row.id,
      userId: row.user_id,
      purpose: row.purpose,
      email: row.email,
      expiresAt: toDate(row.expires_at)!,
      usedAt: toDate(row.used_at),
    };
  }

  async noticesOf(userId: number, topicId: number, types: readonly PendingNotice['type'][]): Promise<TopicNotices | null> {
    const topic = await this.sql.one<{ id: number; title: string }>(
      `select id, title from topics t where id = $1 and ${topicCondition(READERS.mail, readerOf('$2::int'), { topic: 't' })}`,
      [topicId, userId],
    );
    if (!topic) return null;
    // A mention in the topic itself has no reply: its post is the topic's body, by the topic's author. Mail shows what
    // is shown to everyone alike (a reply hidden meanwhile is not mailed).
    const notices = await this.sql.all<PendingNotice>(
      `select n.id as "notificationId", n.type, n.reply_id as "replyId", a.login as "authorLogin",
              coalesce(r.body, t.body) as body, coalesce(r.body_html, t.body_html) as "bodyHtml"
       from notifications n
       join topics t on t.id = n.topic_id
       left join replies r on r.id = n.reply_id
       join users a on a.id = coalesce(r.user_id, t.user_id)
       where n.user_id = $1 and n.topic_id = $2 and n.type = any($3::text[])
         and n.read_at is null and n.emailed_at is null
         and (n.reply_id is null or (${replyCondition(READERS.mail, SIGNED_OUT, 'r')}))
       order by n.id`,
      [userId, topicId, types],
    );
    return { topicId: topic.id, title: topic.title, notices };
  }

  async messagesOf(userId: number, conversationId: number, since: Date): Promise<ConversationMessages | null> {
    const reader = readerOf('$1::int');
    const conversation = await this.sql.one<{ title: string }>(
      `select title from topics t where t.id = $2 and ${topicCondition(READERS.conversationUnread, reader, { topic: 't' })}`,
      [userId, conversationId],
    );
    if (!conversation) return null;
    // The opening message (while its reader never opened the conversation) and the replies after their mark.
    const messages = await this.sql.all<PendingMessage>(
      `select a.login as "authorLogin", m.body, m.body_html as "bodyHtml" from (
         select t.user_id, t.body, t.body_html, t.created_at, 0 as id from topics t
         where t.id = $2 and t.user_id <> $1 and t.created_at >= $3
           and not exists (select 1 from topic_reads tr where tr.user_id = $1 and tr.topic_id = t.id)
         union all
         select r.user_id, r.body, r.body_html, r.created_at, r.id from replies r
         where r.topic_id = $2 and r.created_at >= $3 and ${replyCondition(READERS.conversationUnread, reader, 'r')}
           and r.id > coalesce((select tr.last_read_reply_id from topic_reads tr where tr.user_id = $1 and tr.topic_id = $2), 0)
       ) m join users a on a.id = m.user_id
       order by m.id`,
      [userId, conversationId, since],
    );
    return { title: conversation.title, messages };
  }

  async markMailed(notificationIds: readonly number[], at: Date): Promise<void> {
    if (notificationIds.length === 0) return;
    await this.sql.all('update notifications set emailed_at = $2 where id = any($1::int[]) and emailed_at is null', [
      notificationIds,
      at,
    ]);
  }
}
