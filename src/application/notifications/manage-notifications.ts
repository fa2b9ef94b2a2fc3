import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
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

/** `ids` is required and must be an array; ids of other users' notifications are ignored; an empty array does nothing. */
export class MarkNotificationsRead {
  constructor(private readonly notifications: NotificationRepository) {}

  async execute(actor: Actor, ids: RawParam): Promise<void> {
    const user = requireUser(actor);
    const wanted = [...new Set(read(MarkReadParams.shape.ids, ids, 'ids'))];
    await this.notifications.markRead(user.id, wanted);
  }
}

export class DeleteNotification {
  constructor(private readonly notifications: NotificationRepository) {}

  /** Another user's notification is not found, exactly like one that does not exist. */
  async execute(actor: Actor, id: number): Promise<void> {
    const user = requireUser(actor);
    if (!(await this.notifications.deleteOne(user.id, id))) throw new NotFound('notification');
  }
}

export class DeleteAllNotifications {
  constructor(private readonly notifications: NotificationRepository) {}

  async execute(actor: Actor): Promise<void> {
    await this.notifications.deleteAll(requireUser(actor).id);
  }
}
