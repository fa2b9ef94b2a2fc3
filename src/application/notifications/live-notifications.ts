import type { ActingUser } from '../actor.js';
import type { PublishedEvent } from '../events.js';
import type { NotificationReadModel, NotificationView } from '../read-models.js';

/** A reconnecting client gets at most this many of the notifications it missed (the newest are in the list). */
export const MISSED_LIMIT = 100;

/** What the events mean for one user's stream: new notifications to send, or only a count to refresh. */
export interface LiveChange {
  userId: number;
  notificationIds: number[];
}

/** What to push to one user's streams: their new notifications, oldest first, and their unread count. */
export interface LiveUpdate {
  userId: number;
  notifications: NotificationView[];
  unreadCount: number;
}

/**
 * Contract §12: a user's live stream of their own notifications and unread count. The stream adapter keeps the
 * connections; this says what to send.
 */
export class LiveNotifications {
  constructor(private readonly notifications: NotificationReadModel) {}

  /** What a reconnecting client missed after its `Last-Event-ID`, oldest first. */
  missed(user: ActingUser, afterId: number): Promise<NotificationView[]> {
    return this.notifications.after(user.id, afterId, MISSED_LIMIT, user);
  }

  /** The updates of many users in two reads, whatever their number (a process may hold thousands of streams). */
  async updates(changes: readonly LiveChange[]): Promise<LiveUpdate[]> {
    if (changes.length === 0) return [];
    const ids = changes.flatMap((change) => change.notificationIds);
    const [found, counts] = await Promise.all([
      ids.length > 0 ? this.notifications.byIdsOfAnyUser(ids) : Promise.resolve([]),
      this.notifications.unreadCounts(changes.map((change) => change.userId)),
    ]);
    const byUser = new Map<number, NotificationView[]>();
    for (const { userId, notification } of found) {
      const list = byUser.get(userId);
      if (list) list.push(notification);
      else byUser.set(userId, [notification]);
    }
    return changes.map((change) => ({
      userId: change.userId,
      notifications: byUser.get(change.userId) ?? [],
      unreadCount: counts.get(change.userId) ?? 0,
    }));
  }

  unreadCount(user: ActingUser): Promise<number> {
    return this.notifications.unreadCount(user.id);
  }

  /** The users the events concern, each with the new notifications among them (none: only the count moved). */
  changes(events: readonly PublishedEvent[]): LiveChange[] {
    const byUser = new Map<number, number[]>();
    const touch = (userId: number) => {
      let ids = byUser.get(userId);
      if (!ids) byUser.set(userId, (ids = []));
      return ids;
    };
    for (const event of events) {
      if (event.type === 'notification.created') {
        for (const { id, userId } of event.payload.notifications as { id: number; userId: number }[]) touch(userId).push(id);
      } else if (event.type === 'notification.read' || event.type === 'notification.deleted') {
        for (const userId of event.payload.userIds as number[]) touch(userId);
      }
    }
    return [...byUser].map(([userId, notificationIds]) => ({ userId, notificationIds }));
  }
}
