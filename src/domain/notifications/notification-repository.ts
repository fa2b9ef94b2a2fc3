import type { NewNotification } from './notification.js';

/**
 * The users' notifications. Whatever changes them records its event (`notification.created`, `.read`, `.deleted`)
 * like every other change: the notification producer for those it makes and removes, the use cases that read or
 * delete them for the rest. Each statement that changes them moves their users' unread counts.
 */
export interface NotificationRepository {
  /**
   * Adds notifications as part of the caller's unit of work. They are written at its end, after every other row
   * it changes: each notification moves its user's unread count, and taking those rows last, in user order, in
   * every unit of work is what keeps two writers from deadlocking. The `notification.created` event that names this
   * same list is written with the ids they get.
   */
  addAll(notifications: readonly NewNotification[]): Promise<void>;
  /** Of `ids`, marks those that belong to the user as read; the rest are ignored. True when any was unread. */
  markRead(userId: number, ids: readonly number[]): Promise<boolean>;
  /** Marks the user's notifications about a topic (and its replies) read, at the end of the unit of work. */
  markReadAbout(userId: number, topicId: number): Promise<void>;
  /** Deletes one of the user's notifications; false when the user has no such notification. */
  deleteOne(userId: number, id: number): Promise<boolean>;
  /** True when the user had any. */
  deleteAll(userId: number): Promise<boolean>;
  /**
   * A deleted topic takes its notifications (and those of its replies) with it, a deleted reply its own, at the end
   * of the unit of work. Returns whose they are.
   */
  deleteAbout(about: { topicId: number } | { replyId: number }): Promise<number[]>;
  /**
   * Deletes the notifications about topics (and their replies) that their users may no longer read (contract §23):
   * those of one topic (moved), of one node (its access changed), or of some users (they left a group). Returns whose
   * they were.
   */
  forgetUnreadable(about: { topicId: number } | { nodeId: number } | { userIds: readonly number[] }): Promise<number[]>;
}
export const NotificationRepository = Symbol.for('NotificationRepository');
