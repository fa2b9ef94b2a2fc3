import { type CallerRef, type Identified, requireUser } from '../actor.js';
import type { Clock } from '../ports.js';
import type { ReadCounts, TopicReadModel } from '../read-models.js';

/** A topic is new to a reader who never opened it for this long after it was created (contract §22). */
export const NEW_TOPIC_DAYS = 14;

/** When a topic created now stops being new. */
export const newSince = (now: Date): Date => new Date(now.getTime() - NEW_TOPIC_DAYS * 24 * 60 * 60 * 1000);

/** `GET /topics/unread_count` (contract §22): the caller's topics with unread replies, and new topics. */
export class CountUnreadTopics {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly clock: Clock,
  ) {}

  /** The caller is identified by the count's own statement: 401 for anonymous callers all the same. */
  async execute(caller: CallerRef): Promise<Identified<ReadCounts>> {
    const { viewer, result } = await this.topics.readCounts(caller, newSince(this.clock.now()));
    requireUser(viewer);
    return { viewer, result: result! };
  }
}
