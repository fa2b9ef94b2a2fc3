import type { NewNotification } from '../../domain/notifications/notification.js';
import type { Reply } from '../../domain/replies/reply.js';
import type { UserView } from '../read-models.js';

/**
 * Everything writing a reply needs to know, read in one statement: the topic, the replier, who follows the
 * topic, whom the body mentions, and who of those blocked the replier.
 */
export interface ReplyContext {
  /** Null when the topic does not exist or is deleted. */
  topic: { id: number; userId: number; title: string; closed: boolean } | null;
  /** The id the new reply will have, drawn ahead so that its notifications can name it (null without a topic). */
  replyId: number | null;
  replier: UserView;
  followerIds: number[];
  /** The mentioned logins that exist, as user ids, in the order of `mentionedLogins`. */
  mentionedIds: number[];
  /** Of the topic's author, its followers and the mentioned users: those who blocked the replier. */
  blockedActorFor: number[];
  /**
   * Ids drawn ahead for the notifications, at least one for each (one per user the reply may notify), so that
   * the event that announces them can be recorded before the write.
   */
  notificationIds: number[];
}

/** A notification with the id drawn for it. */
export type NotificationToWrite = NewNotification & { id: number };

/**
 * The write side of a reply (issue 18): a reply create is the busiest write, and each round trip to the database
 * costs the service more CPU than the statement costs PostgreSQL. So the facts are read in one statement and the
 * reply, its notifications, every counter it moves and what its events add (the search document, the outbox) are
 * written in one, which needs no transaction around it; the domain decides in between.
 */
export interface ReplyWriter {
  /** `mentionedLogins`: lower case, distinct. */
  context(topicId: number, replierId: number, mentionedLogins: readonly string[]): Promise<ReplyContext>;
  /**
   * Writes the reply (with its id), its notifications, and the counters it moves: the topic's replies count and
   * last reply (never moved back to an earlier reply), the replier's replies count and month; and, in the same
   * statement, the rows of the events recorded before it in the unit of work. So record the events first.
   */
  write(reply: Reply, replierLogin: string, notifications: readonly NotificationToWrite[]): Promise<void>;
}
export const ReplyWriter = Symbol.for('ReplyWriter');
