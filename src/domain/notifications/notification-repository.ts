import type { NewNotification } from './notification.js';

export interface NotificationRepository {
  /** Of `ids`, marks those that belong to the user as read; the rest are ignored. */
  markRead(userId: number, ids: readonly number[]): Promise<void>;
  /** Deletes one of the user's notifications; false when the user has no such notification. */
  deleteOne(userId: number, id: number): Promise<boolean>;
  deleteAll(userId: number): Promise<void>;
  addAll(notifications: readonly NewNotification[]): Promise<void>;
  /** Marks the user's unread notifications about a topic and its replies as read. */
  markReadForTopic(userId: number, topicId: number): Promise<void>;
  /** A deleted topic takes its notifications (and those of its replies) with it. */
  deleteForTopic(topicId: number): Promise<void>;
  /** A deleted reply takes its notifications with it. */
  deleteForReply(replyId: number): Promise<void>;
}
export const NotificationRepository = Symbol.for('NotificationRepository');
