import type { NewNotification } from './notification.js';

/**
 * The users' notifications. Whatever changes them, the change is announced to live streams as an event
 * (`notification.created`, `.read`, `.deleted`) by the store itself, in the same statement: callers say nothing.
 */
export interface NotificationRepository {
  /** Of `ids`, marks those that belong to the user as read; the rest are ignored. True when any was unread. */
  markRead(userId: number, ids: readonly number[]): Promise<boolean>;
  /** Deletes one of the user's notifications; false when the user has no such notification. */
  deleteOne(userId: number, id: number): Promise<boolean>;
  /** True when the user had any. */
  deleteAll(userId: number): Promise<boolean>;
  /**
   * Adds notifications as part of the caller's unit of work. They are written at its end, after every other row
   * it changes: each notification moves its user's unread count, and taking those rows last, in user order, in
   * every unit of work is what keeps two writers from deadlocking.
   */
  addAll(notifications: readonly NewNotification[]): Promise<void>;
  /** A deleted topic takes its notifications (and those of its replies) with it, at the end of the unit of work. */
  deleteForTopic(topicId: number): Promise<void>;
  /** A deleted reply takes its notifications with it, at the end of the unit of work. */
  deleteForReply(replyId: number): Promise<void>;
}
export const NotificationRepository = Symbol.for('NotificationRepository');
