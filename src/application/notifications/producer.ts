import type { DomainEvent } from '../../domain/events.js';
import {
  type NewNotification,
  whoHearsOfFollow,
  whoHearsOfMove,
  whoHearsOfReply,
  whoHearsOfTopic,
} from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { InTransactionConsumer } from '../events.js';

/** Logins looked up per body at most: enough for any real text, bounded for hostile ones. */
const MENTION_LOOKUP_LIMIT = 50;

/** The logins a body mentions, as looked up: lower case, each once, at most MENTION_LOOKUP_LIMIT. */
export function mentionedLogins(logins: readonly string[]): string[] {
  return [...new Set(logins.map((login) => login.toLowerCase()))].slice(0, MENTION_LOOKUP_LIMIT);
}

/**
 * Who a new reply may concern: the topic's author and followers, the mentioned users, who of them blocked the replier,
 * and who of them may not read the topic's node (contract §23).
 */
export interface ReplyAudience {
  topicAuthorId: number;
  followerIds: number[];
  mentionedIds: number[];
  blockedActorFor: number[];
  unreadableFor: number[];
}

/** Who may hear of an act, as the domain's notification rules need them, read in one statement each. */
export interface NotificationAudience {
  /**
   * A new topic's: the author's followers, the mentioned users that exist (in `logins` order), who of them blocked the
   * author, and who of them may not read the topic's node.
   */
  ofTopic(
    topicId: number,
    authorId: number,
    logins: readonly string[],
  ): Promise<{ followerIds: number[]; mentionedIds: number[]; blockedActorFor: number[]; unreadableFor: number[] }>;
  /**
   * A new reply's: the topic's author and followers, the mentioned users that exist (in `logins` order), who of
   * all of them blocked the replier.
   */
  ofReply(topicId: number, replierId: number, logins: readonly string[]): Promise<ReplyAudience>;
  /** Of `userIds`, those who blocked `actorId`. */
  whoBlocked(actorId: number, userIds: readonly number[]): Promise<number[]>;
  /** Whether `userId` may read where topic `topicId` is (contract §23). */
  mayRead(topicId: number, userId: number): Promise<boolean>;
}
export const NotificationAudience = Symbol.for('NotificationAudience');

/** The fact that `notifications` were made (the outbox names each by its id once written). */
const created = (notifications: readonly NewNotification[]): DomainEvent[] =>
  notifications.length === 0 ? [] : [{ type: 'notification.created', notifications }];

/**
 * The one producer of notifications (issue 30): every notification is derived here, from the domain event of
 * what happened, by the domain's rules (domain/notifications/notification.ts), in the unit of work of the change;
 * a deleted topic or reply takes its notifications with it. It records what it did (`notification.created`,
 * `notification.deleted`) like any other change. A new kind of notification, or a new rule about who hears of what
 * (a block, a hold), is added here once.
 */
export class NotificationProducer implements InTransactionConsumer {
  constructor(
    private readonly audience: NotificationAudience,
    private readonly notifications: NotificationRepository,
  ) {}

  async handle(event: DomainEvent): Promise<readonly DomainEvent[]> {
    const made = await this.made(event);
    if (made.length > 0) await this.notifications.addAll(made);
    const removed = await this.removed(event);
    return [...created(made), ...(removed.length > 0 ? [{ type: 'notification.deleted' as const, userIds: removed }] : [])];
  }

  /** The notifications `event` makes. */
  private async made(event: DomainEvent): Promise<NewNotification[]> {
    switch (event.type) {
      case 'topic.created': {
        const audience = await this.audience.ofTopic(event.topicId, event.userId, mentionedLogins(event.mentions));
        const { followerIds: authorFollowerIds, mentionedIds, blockedActorFor, unreadableFor } = audience;
        return whoHearsOfTopic({
          topicId: event.topicId,
          authorId: event.userId,
          authorFollowerIds,
          mentionedIds,
          blockedActorFor,
          unreadableFor,
        });
      }
      case 'reply.created': {
        const audience = await this.audience.ofReply(event.topicId, event.userId, mentionedLogins(event.mentions));
        return whoHearsOfReply({ topicId: event.topicId, replyId: event.replyId, replierId: event.userId, ...audience });
      }
      case 'topic.moved': {
        if (!event.byAdmin || event.ownerId === event.actorId) return [];
        const ownerMayRead = await this.audience.mayRead(event.topicId, event.ownerId);
        const { topicId, ownerId, actorId, toNodeId: nodeId } = event;
        return whoHearsOfMove({ topicId, ownerId, actorId, nodeId, ownerMayRead });
      }
      case 'user.followed': {
        const blockedActor = (await this.audience.whoBlocked(event.followerId, [event.followeeId])).length > 0;
        return whoHearsOfFollow({ followerId: event.followerId, followeeId: event.followeeId, blockedActor });
      }
      default:
        return [];
    }
  }

  /**
   * The users whose notifications `event` removes: a deleted topic's or reply's go with it; what someone may no longer
   * read (a topic moved, a node's access changed, a group left: contract §23) is forgotten by them.
   */
  private removed(event: DomainEvent): Promise<number[]> {
    switch (event.type) {
      case 'topic.deleted':
        return this.notifications.deleteAbout({ topicId: event.topicId });
      case 'reply.deleted':
        return this.notifications.deleteAbout({ replyId: event.replyId });
      case 'topic.moved':
        return this.notifications.forgetUnreadable({ topicId: event.topicId });
      case 'node.access_changed':
        return this.notifications.forgetUnreadable({ nodeId: event.nodeId });
      case 'group.members_removed':
        return this.notifications.forgetUnreadable({ userIds: event.userIds });
      default:
        return Promise.resolve([]);
    }
  }
}
