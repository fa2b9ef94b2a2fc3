import { NotFound } from '../../domain/shared/errors.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { CallerRef, Identified } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { UnitOfWork } from '../ports.js';
import type { ShownTopic, TopicShowing } from '../read-models.js';
import type { ReadMarks } from './read-state.js';

/** Where a topic's views are counted. */
export interface TopicViews {
  /**
   * Counts a view of the topic (its hit) by the caller, identified by the same statement, if they may open it; the
   * topic as it is then, with their meta. Null when they may not (nothing is counted).
   */
  count(id: number, caller: CallerRef): Promise<Identified<TopicShowing | null>>;
}
export const TopicViews = Symbol.for('TopicViews');

/**
 * Showing a topic is a write: it counts a hit and, for a user, reads their notifications about the topic (contract
 * §6), which their live streams hear of (`notification.read`), and opens the topic for them (contract §22). Units of
 * work each atomic: the view, counted as it is read in one statement; then, only when the caller has unread
 * notifications about it, their reading with its event, in one statement too; and only the first time they show
 * it, its opening (most shows need neither: they cost one statement, and no unit of work's bookkeeping).
 */
export class ShowTopic {
  constructor(
    private readonly views: TopicViews,
    private readonly notifications: NotificationRepository,
    private readonly marks: ReadMarks,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(caller: CallerRef, id: number): Promise<Identified<ShownTopic>> {
    const { viewer, result } = await this.views.count(id, caller);
    if (!result) throw new NotFound('topic');
    const markedRead = viewer !== null && result.unreadNotifications;
    if (markedRead) {
      await this.uow.run(async () => {
        await this.notifications.markReadAbout(viewer.id, id);
        await this.events.record({ type: 'notification.read', userIds: [viewer.id] });
      });
    }
    if (viewer !== null && !result.opened) await this.marks.open(viewer.id, id);
    return { viewer, result: { topic: result.topic, meta: result.meta, markedRead } };
  }
}
