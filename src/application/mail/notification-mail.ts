import type { DomainEvent } from '../../domain/events.js';
import { type MailableType, isMailable } from '../../domain/notifications/mailing.js';
import type { InTransactionConsumer } from '../events.js';

/** A new notification that its recipient may be mailed about, once the delay is over (contract §17). */
export interface NotificationMailCandidate {
  userId: number;
  topicId: number;
  type: MailableType;
}

/**
 * Where notification mail waits out its delay: one entry per recipient and topic (a topic's burst is one mail),
 * kept for those whom the rule of domain/notifications/mailing.ts mails (`mailedTypes` of their preference, an
 * account in use), as their rows say when the entry is written, in the unit of work of the notification.
 */
export interface NotificationMailQueue {
  hold(candidates: readonly NotificationMailCandidate[]): Promise<void>;
  /**
   * The mail of a new message (contract §24), for those of `recipientIds` whose preference mails messages and whose
   * account is mailed: one entry per recipient and conversation, like a topic's (a burst is one mail).
   */
  holdMessage(conversationId: number, recipientIds: readonly number[]): Promise<void>;
}
export const NotificationMailQueue = Symbol.for('NotificationMailQueue');

/**
 * Queues the mail of new notifications (contract §17), in the unit of work that makes them: a consumer of
 * `notification.created`, so that whatever makes a notification (a reply, a topic, a held post approved later)
 * queues its mail, and nothing else does (an import writes history, not news).
 */
export class NotificationMailer implements InTransactionConsumer {
  constructor(private readonly queue: NotificationMailQueue) {}

  async handle(event: DomainEvent): Promise<void> {
    // Messages are no notifications (contract §24: kept apart from them), but they are mailed by the same rules.
    if (event.type === 'message.created' && event.recipientIds.length > 0) {
      return this.queue.holdMessage(event.topicId, event.recipientIds);
    }
    if (event.type !== 'notification.created') return;
    const candidates = event.notifications.flatMap((notification) =>
      notification.topicId !== undefined && isMailable(notification.type)
        ? [{ userId: notification.userId, topicId: notification.topicId, type: notification.type }]
        : [],
    );
    if (candidates.length > 0) await this.queue.hold(candidates);
  }
}
