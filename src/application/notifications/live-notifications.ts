import type { ActingUser } from '../actor.js';
import type { PublishedEvent } from '../events.js';
import type { NotificationReadModel, NotificationView } from '../read-models.js';
import type { ConversationReadModel } from '../conversations/ports.js';

/** A reconnecting client gets at most this many of the notifications it missed (the newest are in the list). */
export const MISSED_LIMIT = 100;

/** A new message for one of its recipients (contract §24): in which conversation, which reply (null: its opening). */
export interface LiveMessage {
  conversationId: number;
  replyId: number | null;
}

/**
 * What the events mean for one user's stream: new notifications to send, or only a count to refresh; new messages
 * (contract §24), kept apart from notifications.
 */
export interface LiveChange {
  userId: number;
  notificationIds: number[];
  messages: LiveMessage[];
}

/**
 * What to push to one user's streams: their new notifications, oldest first, and their unread count; their new
 * messages, with how many conversations have messages they have yet to read (none when no message came).
 */
export interface LiveUpdate {
  userId: number;
  notifications: NotificationView[];
  unreadCount: number;
  messages: LiveMessage[];
  unreadMessages: number;
}

/**
 * Contract §12: a user's live stream of their own notifications and unread count. The stream adapter keeps the
 * connections; this says what to send.
 */
export class LiveNotifications {
  constructor(
    private readonly notifications: NotificationReadModel,
    private readonly conversations: ConversationReadModel,
  ) {}

  /** What a reconnecting client missed after its `Last-Event-ID`, oldest first. */
  missed(user: ActingUser, afterId: number): Promise<NotificationView[]> {
    return this.notifications.after(user.id, afterId, MISSED_LIMIT, user);
  }

  /** The updates of many users in two reads, whatever their number (a process may hold thousands of streams). */
  async updates(changes: readonly LiveChange[]): Promise<LiveUpdate[]> {
    if (changes.length === 0) return [];
    const ids = changes.flatMap((change) => change.notificationIds);
    const messaged = changes.filter((change) => change.messages.length > 0).map((change) => change.userId);
    const [found, counts, messageCounts] = await Promise.all([
      ids.length > 0 ? this.notifications.byIdsOfAnyUser(ids) : Promise.resolve([]),
      this.notifications.unreadCounts(changes.map((change) => change.userId)),
      messaged.length > 0 ? this.conversations.unreadCounts(messaged) : Promise.resolve(new Map<number, number>()),
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
      messages: change.messages,
      unreadMessages: messageCounts.get(change.userId) ?? 0,
    }));
  }

  unreadCount(user: ActingUser): Promise<number> {
    return this.notifications.unreadCount(user.id);
  }

  /** The users the events concern, each with the new notifications among them (none: only the count moved). */
  changes(events: readonly PublishedEvent[]): LiveChange[] {
    const byUser = new Map<number, LiveChange>();
    const touch = (userId: number) => {
      let change = byUser.get(userId);
      if (!change) byUser.set(userId, (change = { userId, notificationIds: [], messages: [] }));
      return change;
    };
    for (const event of events) {
      if (event.type === 'notification.created') {
        for (const { id, userId } of event.payload.notifications as { id: number; userId: number }[]) {
          touch(userId).notificationIds.push(id);
        }
      } else if (event.type === 'notification.read' || event.type === 'notification.deleted') {
        for (const userId of event.payload.userIds as number[]) touch(userId);
      } else if (event.type === 'message.created') {
        const message = { conversationId: event.payload.topicId as number, replyId: event.payload.replyId as number | null };
        for (const userId of event.payload.recipientIds as number[]) touch(userId).messages.push(message);
      }
    }
    return [...byUser.values()];
  }
}
