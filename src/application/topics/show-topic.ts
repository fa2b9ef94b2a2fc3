import { NotFound } from '../../domain/shared/errors.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { CallerRef, Identified } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { UnitOfWork } from '../ports.js';
import type { ShownTopic, TopicReadModel } from '../read-models.js';

/**
 * Showing a topic is a write: it counts a hit and, for a user, reads their notifications about the topic (contract
 * §6), which their live streams hear of (`notification.read`). One read (the caller identified in it), then the
 * writes, staged for the one statement that ends the unit of work.
 */
export class ShowTopic {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly topicRows: TopicRepository,
    private readonly notifications: NotificationRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  execute(caller: CallerRef, id: number): Promise<Identified<ShownTopic>> {
    return this.uow.run(async () => {
      const { viewer, result } = await this.topics.show(id, caller);
      if (!result) throw new NotFound('topic');
      await this.topicRows.countView(id);
      const markedRead = viewer !== null && result.unreadNotifications;
      if (markedRead) {
        await this.notifications.markReadAbout(viewer.id, id);
        await this.events.record({ type: 'notification.read', userIds: [viewer.id] });
      }
      // The view it shows counts itself, as the hit it adds.
      const topic = { ...result.topic, hits: result.topic.hits + 1 };
      return { viewer, result: { topic, meta: result.meta, markedRead } };
    });
  }
}
