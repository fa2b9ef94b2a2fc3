import type { PostingFacts } from '../../../application/review/posting-rules.js';
import type { Author, PostKind, PostingHistory } from '../../../domain/review/posting.js';
import type { Role } from '../../../domain/users/role.js';
import type { Sql } from '../database/sql.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { SIGNED_OUT, replyCondition, topicCondition } from '../read-models/visibility.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

/** An author's columns as the posting rules read them (`authorColumns`), read with whatever else a write reads first. */
export interface AuthorRow {
  id: number;
  role: Role;
  self_registered: boolean;
  created_at: Timestamp;
  silenced_until: Timestamp | null;
  suspended_until: Timestamp | null;
}

/** The columns of `AuthorRow`, from the users row `u`. */
export const authorColumns = (u: string) =>
  `${u}.id, ${u}.role, ${u}.self_registered, ${u}.created_at, ${u}.silenced_until, ${u}.suspended_until`;

/** The author a row of `authorColumns` describes. */
export const authorOf = (row: AuthorRow): Author => ({
  id: row.id,
  role: row.role,
  selfRegistered: row.self_registered,
  joinedAt: toDate(row.created_at),
  silencedUntil: toDate(row.silenced_until),
  suspendedUntil: toDate(row.suspended_until),
});

/**
 * A new account's history, in one statement, each part only when asked (`case` evaluates what it needs): what it
 * posted of the kind in the window (READERS.written: every post it made; messages, contract §24, are a kind apart), whether the same body went to another topic in it (both read through the
 * author's index, over the few posts of an account's first day), and how many of its posts were published (READERS.authored), counted
 * only up to the number that still matters (a prolific author costs as little as a new one).
 */
const made = (alias: string) => replyCondition(READERS.written, SIGNED_OUT, alias);
/** A reply's topic is in a node (a reply in the forum) or in none (a message, contract §24). */
const replyIn = (place: 'forum' | 'conversation', alias: string) =>
  `exists (select 1 from topics rt where rt.id = ${alias}.topic_id and rt.node_id is ${place === 'forum' ? 'not ' : ''}null)`;
const HISTORY = `
  select
    case when not $5 then 0
         when $2 = 'topic' then (select count(*)::int from topics t where t.user_id = $1 and t.created_at > $3 and t.node_id is not null)
         when $2 = 'reply' then (select count(*)::int from replies r where r.user_id = $1 and ${made('r')} and r.created_at > $3
                                   and ${replyIn('forum', 'r')})
         else (select count(*)::int from topics t where t.user_id = $1 and t.created_at > $3 and t.node_id is null)
              + (select count(*)::int from replies r where r.user_id = $1 and ${made('r')} and r.created_at > $3
                   and ${replyIn('conversation', 'r')}) end as recent,
    case when not $5 then false else exists(
      select 1 from topics t where t.user_id = $1 and t.created_at > $3 and t.body = $4 and t.id is distinct from $6
      union all
      select 1 from replies r where r.user_id = $1 and ${made('r')} and r.created_at > $3 and r.body = $4
        and r.topic_id is distinct from $6) end as repeated,
    (select count(*)::int from (
       select 1 from topics t where t.user_id = $1 and ${topicCondition(READERS.authored, SIGNED_OUT, { topic: 't' })} limit $7) t)
      + (select count(*)::int from (
           select 1 from replies r where r.user_id = $1 and ${replyCondition(READERS.authored, SIGNED_OUT, 'r')}
             and ${replyIn('forum', 'r')} limit $7) r)
      as published`;

export class SqlPostingFacts implements PostingFacts {
  constructor(private readonly sql: Sql) {}

  async author(userId: number): Promise<Author | null> {
    const row = await this.sql.one<AuthorRow>(`select ${authorColumns('u')} from users u where u.id = $1`, [userId]);
    return row && authorOf(row);
  }

  async history(
    userId: number,
    post: { kind: PostKind; body: string; topicId: number | null },
    options: { since: Date; newAccount: boolean; publishedUpTo: number },
  ): Promise<PostingHistory> {
    const row = await this.sql.one<PostingHistory>(HISTORY, [
      userId,
      post.kind,
      options.since.toISOString(),
      post.body,
      options.newAccount,
      post.topicId,
      options.publishedUpTo,
    ]);
    return row!;
  }
}
