import { NotFound } from '../../domain/shared/errors.js';
import type { CallerRef, Identified } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { ShownTopic, TopicReadModel } from '../read-models.js';

/**
 * Reading a topic counts a hit and, for a user, marks their notifications about it as read: the read model does
 * both with the read itself, in one statement (a show is the most frequent signed-in request). When that changed
 * the caller's unread count, it is said as every other way of reading notifications says it (live streams).
 */
export class ShowTopic {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly events: DomainEvents,
  ) {}

  async execute(caller: CallerRef, id: number): Promise<Identified<ShownTopic>> {
    const { viewer, result } = await this.topics.show(id, caller);
    if (!result) throw new NotFound('topic');
    if (result.markedRead && viewer) await this.events.record({ type: 'notification.read', userIds: [viewer.id] });
    return { viewer, result };
  }
}
