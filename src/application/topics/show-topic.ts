import { NotFound } from '../../domain/shared/errors.js';
import type { CallerRef, Identified } from '../actor.js';
import type { ShownTopic, TopicReadModel } from '../read-models.js';

/**
 * Reading a topic counts a hit and, for a user, marks their notifications about it as read: the read model does
 * both with the read itself, in one statement (a show is the most frequent signed-in request). The database says
 * it to live streams, as it does for every change to notifications (`notification.read`).
 */
export class ShowTopic {
  constructor(private readonly topics: TopicReadModel) {}

  async execute(caller: CallerRef, id: number): Promise<Identified<ShownTopic>> {
    const { viewer, result } = await this.topics.show(id, caller);
    if (!result) throw new NotFound('topic');
    return { viewer, result };
  }
}
