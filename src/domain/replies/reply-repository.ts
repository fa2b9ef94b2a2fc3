import type { Reply } from './reply.js';

export interface ReplyRepository {
  /** A reply in any state (deleted too), or null: who may see it is the visibility policy's question. */
  find(id: number): Promise<Reply | null>;
  /**
   * A new reply, written with the unit of work: with it move its topic's replies count and last reply and its
   * author's replies count (a system event moves none). It has its id once the unit of work is done, if not before.
   */
  add(reply: Reply): Promise<void>;
  /** Writes a loaded reply's changes now (inside the caller's unit of work). */
  save(reply: Reply): Promise<void>;
  /**
   * A user's replies written by hand and not deleted, in the forum's topics, by id (a spammer's, to delete them all);
   * never a message of a conversation (§24).
   */
  authoredBy(userId: number): Promise<Reply[]>;
  /** True when the topic has visible (not deleted, not system) replies by someone other than `authorId`. */
  hasVisibleRepliesFromOthers(topicId: number, authorId: number): Promise<boolean>;
}
export const ReplyRepository = Symbol.for('ReplyRepository');
