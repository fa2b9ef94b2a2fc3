import type { Reply } from './reply.js';

export interface ReplyRepository {
  add(reply: Reply): Promise<void>;
  /** True when the topic has visible (not deleted, not system) replies by someone other than `authorId`. */
  hasVisibleRepliesFromOthers(topicId: number, authorId: number): Promise<boolean>;
}
export const ReplyRepository = Symbol.for('ReplyRepository');
