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
}

/**
 * The write side of a reply (issue 18): a reply create is the busiest write, and each round trip to the database
 * costs the service more CPU than the statement costs PostgreSQL. So the facts are read in one statement and the
 * reply, its notifications and every counter it moves are written in one; the domain decides in between.
 */
export interface ReplyWriter {
  /** `mentionedLogins`: lower case, distinct. */
  context(topicId: number, replierId: number, mentionedLogins: readonly string[]): Promise<ReplyContext>;
  /**
   * Writes the reply (with its id), its notifications, and the counters it moves: the topic's replies count and
   * last reply (never moved back to an earlier reply), the replier's replies count and month. Returns the
   * notifications written.
   */
  write(reply: Reply, replierLogin: string, notifications: readonly NewNotification[]): Promise<{ id: number; userId: number }[]>;
}
export const ReplyWriter = Symbol.for('ReplyWriter');
