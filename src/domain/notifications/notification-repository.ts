import type { NewNotification } from './notification.js';

/** Every change answers whom it touched, so that what follows (live streams) can say so. */
export interface NotificationRepository {
  /** Of `ids`, marks those that belong to the user as read; the rest are ignored. True when any was unread. */
  markRead(userId: number, ids: readonly number[]): Promise<boolean>;
  /** Deletes one of the user's notifications; false when the user has no such notification. */
  deleteOne(userId: number, id: number): Promise<boolean>;
  /** True when the user had any. */
  deleteAll(userId: number): Promise<boolean>;
  /** The new notifications' ids, each with its user. */
  addAll(notifications: readonly NewNotification[]): Promise<{ id: number; userId: number }[]>;
  /** Marks the user's unread notifications about a topic and its replies as read. True when any was unread. */
  /** A deleted topic takes its notifications (and those of its replies) with it: the users who had them. */
  deleteForTopic(topicId: number): Promise<number[]>;
  /** A deleted reply takes its notifications with it: the users who had them. */
  deleteForReply(replyId: number): Promise<number[]>;
}
export const NotificationRepository = Symbol.for('NotificationRepository');
