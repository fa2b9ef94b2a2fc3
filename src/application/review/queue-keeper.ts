import type { DomainEvent } from '../../domain/events.js';
import type { InTransactionConsumer } from '../events.js';
import type { Clock } from '../ports.js';
import type { ReviewStore } from './ports.js';

/**
 * The queue's own bookkeeping, from the facts (an in-transaction consumer): a held post opens its item; a post deleted
 * outside the queue (by its author, a moderator, a purge) closes its pending items as `deleted`.
 */
export class ReviewQueueKeeper implements InTransactionConsumer {
  constructor(
    private readonly store: ReviewStore,
    private readonly clock: Clock,
  ) {}

  async handle(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'post.held':
        return this.store.openHold(event, this.clock.now());
      case 'post.discarded':
        return this.store.resolveDeleted(event, event.actorId, this.clock.now());
      case 'topic.deleted':
        return this.store.resolveDeleted({ targetType: 'Topic', targetId: event.topicId }, event.actorId, this.clock.now());
      case 'reply.deleted':
        return this.store.resolveDeleted({ targetType: 'Reply', targetId: event.replyId }, event.actorId, this.clock.now());
    }
  }
}
