import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import type { DomainEvent } from '../../domain/events.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { DomainEvents } from '../events.js';
import type { UnitOfWork } from '../ports.js';
import { type Actor, type CallerRef, type Identified, requireUser } from '../actor.js';
import { type RawParam, Ids, PageParams, read, readAll } from '../inputs.js';
import type { NotificationReadModel, NotificationView } from '../read-models.js';

/** Every notification operation acts on the caller's own notifications only. */

/** The parameters of marking notifications read, as they are read (and documented). */
export const MarkReadParams = z.object({ ids: Ids });

export class ListNotifications {
  constructor(private readonly notifications: NotificationReadModel) {}

  async execute(actor: Actor, input: { offset?: unknown; limit?: unknown }): Promise<NotificationView[]> {
    const user = requireUser(actor);
    const page = readAll(PageParams, input);
    return this.notifications.list(user.id, page, user);
  }
}

export class CountUnreadNotifications {
  constructor(private readonly notifications: NotificationReadModel) {}

  /** The caller is identified by the count's own statement: 401 for anonymous callers all the same. */
  async execute(caller: CallerRef): Promise<Identified<number>> {
    const { viewer, result } = await this.notifications.unreadCountOf(caller);
    requireUser(viewer);
    return { viewer, result: result! };
  }
}

/** What a change to the caller's notifications records: their unread count may have moved (live streams send it). */
const changedFor = (type: 'notification.read' | 'notification.deleted', userId: number): DomainEvent => ({
  type,
  userIds: [userId],
});

/** `ids` is required and must be an array; ids of other users' notifications are ignored; an empty array does nothing. */
export class MarkNotificationsRead {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, ids: RawParam): Promise<void> {
    const user = requireUser(actor);
    const wanted = [...new Set(read(MarkReadParams.shape.ids, ids, 'ids'))];
    await this.uow.run(async () => {
      if (await this.notifications.markRead(user.id, wanted)) await this.events.record(changedFor('notification.read', user.id));
    });
  }
}

export class DeleteNotification {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  /** Another user's notification is not found, exactly like one that does not exist. */
  async execute(actor: Actor, id: number): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      if (!(await this.notifications.deleteOne(user.id, id))) throw new NotFound('notification');
      await this.events.record(changedFor('notification.deleted', user.id));
    });
  }
}

export class DeleteAllNotifications {
  constructor(
    private readonly notifications: NotificationRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      if (await this.notifications.deleteAll(user.id)) await this.events.record(changedFor('notification.deleted', user.id));
    });
  }
}
