import { topicCreated, userFollowed } from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { UserRepository } from '../../domain/users/user-repository.js';

/** Logins looked up per body at most: enough for any real text, bounded for hostile ones. */
const MENTION_LOOKUP_LIMIT = 50;

/** The logins a body mentions, as looked up: lower case, each once, at most MENTION_LOOKUP_LIMIT. */
export function mentionedLogins(logins: readonly string[]): string[] {
  return [...new Set(logins.map((login) => login.toLowerCase()))].slice(0, MENTION_LOOKUP_LIMIT);
}

/**
 * Gathers what the domain's notification rules need (followers, mentioned users, blocks), lets them decide, and
 * writes the result. Runs inside the caller's unit of work, so notifications land with the event or not at all.
 */
export class Notifier {
  constructor(
    private readonly users: UserRepository,
    private readonly notifications: NotificationRepository,
  ) {}

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
    return this.users.idsByLogins(mentionedLogins(logins));
  }
}
