import type { UserView } from '../read-models.js';

/** A topic as replying to it needs it, with the replier as the new reply shows them. */
export interface ReplyTarget {
  topic: { id: number; userId: number; title: string; closed: boolean };
  replier: UserView;
  /** The id the new reply takes, drawn from the replies' sequence with the read. */
  replyId: number;
}

/** Where a new reply goes: the topic (null when it does not exist or is deleted), read at once with the replier. */
export interface ReplyTargets {
  find(topicId: number, replierId: number): Promise<ReplyTarget | null>;
}
export const ReplyTargets = Symbol.for('ReplyTargets');
