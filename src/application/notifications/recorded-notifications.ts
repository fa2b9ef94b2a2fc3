import type { NewNotification } from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { DomainEvents } from '../events.js';

/**
 * The notification repository, saying what changed: every change that gives a user a notification or may
 * change their unread count records it as a domain event, in the transaction of the change. Every way a
 * notification is made, read or deleted goes through here, so no use case can forget (live streams rely on it),
 * but two, which write them inside one statement of their own and record the same events themselves: a reply's
 * notifications (CreateReply, through ReplyWriter) and the mark-read of a topic show (ShowTopic).
 */
export class RecordedNotifications implements NotificationRepository {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly events: DomainEvents,
  ) {}

  async addAll(notifications: readonly NewNotification[]): Promise<{ id: number; userId: number }[]> {
    const added = await this.notifications.addAll(notifications);
    if (added.length > 0) await this.events.record({ type: 'notification.created', notifications: added });
    return added;
  }

  async markRead(userId: number, ids: readonly number[]): Promise<boolean> {
    return this.read(userId, await this.notifications.markRead(userId, ids));
  }

  async deleteOne(userId: number, id: number): Promise<boolean> {
    return this.deleted([userId], await this.notifications.deleteOne(userId, id));
  }

  async deleteAll(userId: number): Promise<boolean> {
    return this.deleted([userId], await this.notifications.deleteAll(userId));
  }

  async deleteForTopic(topicId: number): Promise<number[]> {
    const userIds = await this.notifications.deleteForTopic(topicId);
    await this.deleted(userIds, userIds.length > 0);
    return userIds;
  }

  async deleteForReply(replyId: number): Promise<number[]> {
    const userIds = await this.notifications.deleteForReply(replyId);
    await this.deleted(userIds, userIds.length > 0);
    return userIds;
  }

  private async read(userId: number, changed: boolean): Promise<boolean> {
    if (changed) await this.events.record({ type: 'notification.read', userIds: [userId] });
    return changed;
  }

  private async deleted(userIds: number[], changed: boolean): Promise<boolean> {
    if (changed) await this.events.record({ type: 'notification.deleted', userIds });
    return changed;
  }
}
