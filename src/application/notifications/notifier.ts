import { replyCreated, topicCreated, userFollowed } from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { UserRepository } from '../../domain/users/user-repository.js';

/** Logins looked up per body at most: enough for any real text, bounded for hostile ones. */
const MENTION_LOOKUP_LIMIT = 50;

/**
 * Gathers what the domain's notification rules need (followers, mentioned users, blocks), lets them decide, and
 * writes the result. Runs inside the caller's unit of work, so notifications land with the event or not at all.
 */
export class Notifier {
  constructor(
    private readonly users: UserRepository,
    private readonly topics: TopicRepository,
    private readonly notifications: NotificationRepository,
  ) {}

  async replyCreated(
    reply: { id: number; userId: number },
    topic: { id: number; userId: number },
    mentions: string[],
  ): Promise<void> {
    const followerIds = await this.topics.followerIds(topic.id);
    const mentionedIds = await this.resolve(mentions);
    const blockedActorFor = await this.users.whoBlocked(reply.userId, [topic.userId, ...followerIds, ...mentionedIds]);
    await this.notifications.addAll(
      replyCreated({
        topicId: topic.id,
        replyId: reply.id,
        topicAuthorId: topic.userId,
        replierId: reply.userId,
        followerIds,
        mentionedIds,
        blockedActorFor,
      }),
    );
  }

  async topicCreated(topic: { id: number; userId: number }, mentions: string[]): Promise<void> {
    const authorFollowerIds = await this.users.followerIds(topic.userId);
    const mentionedIds = await this.resolve(mentions);
    const blockedActorFor = await this.users.whoBlocked(topic.userId, [...authorFollowerIds, ...mentionedIds]);
    await this.notifications.addAll(
      topicCreated({ topicId: topic.id, authorId: topic.userId, authorFollowerIds, mentionedIds, blockedActorFor }),
    );
  }

  async userFollowed(followerId: number, followeeId: number): Promise<void> {
    const blockedActor = (await this.users.whoBlocked(followerId, [followeeId])).length > 0;
    await this.notifications.addAll(userFollowed({ followerId, followeeId, blockedActor }));
  }

  private resolve(logins: string[]): Promise<number[]> {
    const distinct = [...new Set(logins.map((login) => login.toLowerCase()))].slice(0, MENTION_LOOKUP_LIMIT);
    return this.users.idsByLogins(distinct);
  }
}
