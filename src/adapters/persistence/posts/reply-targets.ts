import type { ReplyTarget, ReplyTargets } from '../../../application/replies/reply-targets.js';
import type { ReplyAudience } from '../../../application/notifications/producer.js';
import type { Sql } from '../database/sql.js';
import type { Visibility } from '../../../domain/shared/post.js';
import type { Role } from '../../../domain/users/role.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import { type AccessRow, accessColumns, accessOf } from '../repositories/node-access.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { nodeCondition, readerOf, topicCondition } from '../read-models/visibility.js';

interface TargetRow extends Partial<AccessRow> {
  replier_group_ids: number[];
  topic_id: number | null;
  topic_user_id: number | null;
  topic_title: string | null;
  topic_closed: boolean | null;
  topic_visibility: Visibility | null;
  reply_id: number | null;
  replier_login: string;
  replier_name: string | null;
  replier_role: Role;
  replier_self_registered: boolean;
  replier_created_at: Timestamp;
  replier_silenced_until: Timestamp | null;
  replier_suspended_until: Timestamp | null;
  follower_ids: number[];
  mentioned_ids: number[];
  blocked_actor_for: number[];
  unreadable_for: number[];
}

/**
 * A reply's audience read with its target, kept for the unit of work that read it: the notification producer asks
 * for it a moment later (`SqlNotificationAudience.ofReply`) and finds it here instead of reading it again. A reply
 * create is the busiest write; a round trip saved is worth about a tenth of its cost (docs/performance.md).
 */
export class ReadAudiences {
  private readonly kept = new WeakMap<object, { key: string; audience: ReplyAudience }>();

  constructor(private readonly sql: Sql) {}

  keep(key: string, audience: ReplyAudience): void {
    const unitOfWork = this.sql.unitOfWork();
    if (unitOfWork) this.kept.set(unitOfWork, { key, audience });
  }

  /** The audience kept for `key` in the current unit of work, once (then forgotten). */
  take(key: string): ReplyAudience | null {
    const unitOfWork = this.sql.unitOfWork();
    const kept = unitOfWork && this.kept.get(unitOfWork);
    if (!kept || kept.key !== key) return null;
    this.kept.delete(unitOfWork);
    return kept.audience;
  }
}

/** Who a reply may concern, as `ReadAudiences` keys it. */
/** Whom a reply may concern, as the audience's statements name them (CTEs `topic`, `followers`, `mentioned`). */
export const CANDIDATES = 'select user_id as id from topic union select user_id from followers union select id from mentioned';

export const replyAudienceKey = (topicId: number, replierId: number, logins: readonly string[]) =>
  `${topicId}:${replierId}:${logins.join(' ')}`;

/**
 * The topic (if the replier may open it: READERS.post), the replier (as the reply shows them and as the posting rules
 * know them) and the reply's audience in one statement; the reply's id is drawn for a topic that is found. The audience (the topic's author and followers, the mentioned users, who of them blocked the replier)
 * is what the notification producer will ask for: it is kept for it (`ReadAudiences`).
 */
export class SqlReplyTargets implements ReplyTargets {
  constructor(
    private readonly sql: Sql,
    private readonly audiences: ReadAudiences,
  ) {}

  async find(topicId: number, replierId: number, mentionedLogins: readonly string[]): Promise<ReplyTarget | null> {
    const row = await this.sql.one<TargetRow>(
      `with topic as (
         select t.id, t.user_id, t.title, t.closed_at is not null as closed, t.visibility, ${accessColumns('n')}
         from topics t join nodes n on n.id = t.node_id
         where t.id = $1 and ${topicCondition(READERS.post, readerOf('$2::int'), { topic: 't', node: 'n' })}),
       followers as (select f.user_id from topic_follows f join topic t on t.id = f.topic_id),
       mentioned as (select id, lower(login) as login from users where lower(login) = any($3::text[]))
       select t.id as topic_id, t.user_id as topic_user_id, t.title as topic_title, t.closed as topic_closed,
         t.visibility as topic_visibility, ${accessColumns('t')},
         coalesce(u.group_ids, '{}') as replier_group_ids,
         case when t.id is not null then nextval('replies_id_seq')::int end as reply_id,
         u.login as replier_login, u.name as replier_name, u.role as replier_role,
         u.self_registered as replier_self_registered, u.created_at as replier_created_at,
         u.silenced_until as replier_silenced_until, u.suspended_until as replier_suspended_until,
         array(select user_id from followers order by user_id) as follower_ids,
         array(select id from mentioned order by array_position($3::text[], login)) as mentioned_ids,
         array(select b.user_id from user_blocks b where b.blocked_user_id = $2 and b.user_id in (
           select user_id from topic union select user_id from followers union select id from mentioned)
           order by b.user_id) as blocked_actor_for,
         array(select c.id from (${CANDIDATES}) c where not ${nodeCondition(readerOf('c.id'), 't')} order by c.id)
           as unreadable_for
       from users u left join topic t on true
       where u.id = $2`,
      [topicId, replierId, mentionedLogins],
    );
    if (!row || row.topic_id === null) return null;
    this.audiences.keep(replyAudienceKey(topicId, replierId, mentionedLogins), {
      topicAuthorId: row.topic_user_id!,
      followerIds: row.follower_ids,
      mentionedIds: row.mentioned_ids,
      blockedActorFor: row.blocked_actor_for,
      unreadableFor: row.unreadable_for,
    });
    return {
      topic: {
        id: row.topic_id,
        userId: row.topic_user_id!,
        title: row.topic_title!,
        closed: row.topic_closed!,
        visibility: row.topic_visibility!,
        nodeAccess: accessOf(row as AccessRow),
      },
      replierGroupIds: row.replier_group_ids,
      replier: { id: replierId, login: row.replier_login, name: row.replier_name },
      author: {
        id: replierId,
        role: row.replier_role,
        selfRegistered: row.replier_self_registered,
        joinedAt: toDate(row.replier_created_at)!,
        silencedUntil: toDate(row.replier_silenced_until),
        suspendedUntil: toDate(row.replier_suspended_until),
      },
      replyId: row.reply_id!,
    };
  }
}
