import type { NotificationAudience, ReplyAudience } from '../../../application/notifications/producer.js';
import { type ReadAudiences, replyAudienceKey } from './reply-targets.js';
import type { Sql } from '../database/sql.js';

interface AudienceRow {
  topic_author_id: number | null;
  follower_ids: number[];
  mentioned_ids: number[];
  blocked_actor_for: number[];
}

/** Each audience in one statement: the followers, the mentioned users, and who of them blocked the actor. */
export class SqlNotificationAudience implements NotificationAudience {
  constructor(
    private readonly sql: Sql,
    private readonly audiences: ReadAudiences,
  ) {}

  async ofTopic(authorId: number, logins: readonly string[]) {
    const row = (await this.sql.one<AudienceRow>(
      `with followers as (select follower_id as id from user_follows where followee_id = $1),
       mentioned as (select id, lower(login) as login from users where lower(login) = any($2::text[]))
       select null as topic_author_id,
         array(select id from followers order by id) as follower_ids,
         array(select id from mentioned order by array_position($2::text[], login)) as mentioned_ids,
         array(select b.user_id from user_blocks b where b.blocked_user_id = $1 and b.user_id in (
           select id from followers union select id from mentioned) order by b.user_id) as blocked_actor_for`,
      [authorId, logins],
    ))!;
    return { followerIds: row.follower_ids, mentionedIds: row.mentioned_ids, blockedActorFor: row.blocked_actor_for };
  }

  /** Read with the reply's target when it was (reply-targets.ts), else here. */
  async ofReply(topicId: number, replierId: number, logins: readonly string[]): Promise<ReplyAudience> {
    const read = this.audiences.take(replyAudienceKey(topicId, replierId, logins));
    if (read) return read;
    const row = (await this.sql.one<AudienceRow>(
      `with topic as (select user_id from topics where id = $1),
       followers as (select user_id from topic_follows where topic_id = $1),
       mentioned as (select id, lower(login) as login from users where lower(login) = any($3::text[]))
       select (select user_id from topic) as topic_author_id,
         array(select user_id from followers order by user_id) as follower_ids,
         array(select id from mentioned order by array_position($3::text[], login)) as mentioned_ids,
         array(select b.user_id from user_blocks b where b.blocked_user_id = $2 and b.user_id in (
           select user_id from topic union select user_id from followers union select id from mentioned)
           order by b.user_id) as blocked_actor_for`,
      [topicId, replierId, logins],
    ))!;
    return {
      topicAuthorId: row.topic_author_id!,
      followerIds: row.follower_ids,
      mentionedIds: row.mentioned_ids,
      blockedActorFor: row.blocked_actor_for,
    };
  }

  async whoBlocked(actorId: number, userIds: readonly number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = await this.sql.all<{ id: number }>(
      'select user_id as id from user_blocks where blocked_user_id = $1 and user_id = any($2::int[])',
      [actorId, userIds],
    );
    return rows.map((row) => row.id);
  }
}
