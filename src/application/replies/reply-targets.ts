import type { NodeAccess } from '../../domain/nodes/access.js';
import type { Author } from '../../domain/review/posting.js';
import type { Visibility } from '../../domain/shared/post.js';
import type { UserView } from '../read-models.js';

/** A topic as replying to it needs it, with the replier as the new reply shows them and as the posting rules know them. */
export interface ReplyTarget {
  topic: { id: number; userId: number; title: string; closed: boolean; visibility: Visibility; nodeAccess: NodeAccess };
  /** The groups the replier belongs to, as the node's access asks (contract §23). */
  replierGroupIds: number[];
  replier: UserView;
  /** The replier, as the posting rules (contract §18) need them. */
  author: Author;
  /** The id the new reply takes, drawn from the replies' sequence with the read. */
  replyId: number;
}

/**
 * Where a new reply goes: the topic (null when the replier may not open it: READERS.post of the visibility policy),
 * read at once with the replier.
 * `mentionedLogins` (as `mentionedLogins` gives them) let the same read serve the notification producer's
 * question about the reply's audience, which follows at once (an adapter may answer both in one round trip).
 */
export interface ReplyTargets {
  find(topicId: number, replierId: number, mentionedLogins: readonly string[]): Promise<ReplyTarget | null>;
}
export const ReplyTargets = Symbol.for('ReplyTargets');
