import { NotFound } from '../../domain/shared/errors.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { Actor } from '../actor.js';
import type { TopicDetailView, TopicReadModel, TopicViewerMeta } from '../read-models.js';

/** Reading a topic counts a hit and, for a user, marks their notifications about it as read. */
export class ShowTopic {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly notifications: NotificationRepository,
  ) {}

  async execute(actor: Actor, id: number): Promise<{ topic: TopicDetailView; meta: TopicViewerMeta }> {
    const shown = await this.topics.detailCountingHit(id, actor);
    if (!shown) throw new NotFound('topic');
    if (actor) await this.notifications.markReadForTopic(actor.id, id);
    return shown;
  }
}
