import type { NotificationAudience, ReplyAudience } from '../../../application/notifications/producer.js';
import { CANDIDATES, type ReadAudiences, replyAudienceKey } from './reply-targets.js';
import type { Sql } from '../database/sql.js';
import { nodeCondition, readerOf } from '../read-models/visibility.js';

interface AudienceRow {
  topic_author_id: number | null;
  follower_ids: number[];
  mentioned_ids: number[];
  blocked_actor_for: number[];
  unreadable_for: number[];
}

/**
 * Of the users `candidates` (a select of `id`), those who may not read in the node of the topic `topicId` (contract
 * §23): the policy's own condition, read by each of them. A node everyone reads decides by its column alone.
 */
export const unreadableFor = (candidates: string, topicId: string) =>
  `array(select c.id from (${candidates}) c where not exists (
     select 1 from topics ut join nodes un on un.id = ut.node_id
     where ut.id = ${topicId} and ${nodeCondition(readerOf('c.id'), 'un')}) order by c.id)`;

/** Each audience in one statement: the followers, the mentioned users, and who of them blocked the actor. */
export class SqlNotificationAudience implements NotificationAudience {
  constructor(
    private readonly sql: Sql,
    private readonly audiences: ReadAudiences,
  ) {}

  async ofTopic(topicId: number, authorId: number, logins: readonly string[]) {
    const row = (await this.sql.one<AudienceRow>(
      `with followers as (select follower_id as id from user_follows where followee_id = $1),
       mentioned as (select id, lower(login) as login from users where lower(login) = any($2::text[]))
       select null as topic_author_id,
         array(select id from followers order by id) as follower_ids,
         array(select id from mentioned order by array_position($2::text[], login)) as mentioned_ids,
         array(select b.user_id from user_blocks b where b.blocked_user_id = $1 and b.user_id in (
           select id from followers union select id from mentioned) order by b.user_id) as blocked_actor_for,
         ${unreadableFor('select id from followers union select id from mentioned', '$3::int')} as unreadable_for`,
      [authorId, logins, topicId],
    ))!;
    return {
      followerIds: row.follower_ids,
      mentionedIds: row.mentioned_ids,
      blockedActorFor: row.blocked_actor_for,
      unreadableFor: row.unreadable_for,
    };
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
           order by b.user_id) as blocked_actor_for,
         ${unreadableFor(CANDIDATES, '$1::int')} as unreadable_for`,
      [topicId, replierId, logins],
    ))!;
    return {
      topicAuthorId: row.topic_author_id!,
      followerIds: row.follower_ids,
      mentionedIds: row.mentioned_ids,
      blockedActorFor: row.blocked_actor_for,
      unreadableFor: row.unreadable_for,
    };
  }

  async mayRead(topicId: number, userId: number): Promise<boolean> {
    const row = await this.sql.one<{ unreadable_for: number[] }>(
      `select ${unreadableFor('select $2::int as id', '$1::int')} as unreadable_for`,
      [topicId, userId],
    );
    return row!.unreadable_for.length === 0;
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
