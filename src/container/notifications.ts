import { ContainerModule } from 'inversify';
import { LiveNotifications } from '../application/notifications/live-notifications.js';
import {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from '../application/notifications/manage-notifications.js';
import { NotificationAudience } from '../application/notifications/producer.js';
import { NotificationReadModel } from '../application/read-models.js';
import { ConversationReadModel } from '../application/conversations/ports.js';
import { DomainEvents } from '../application/events.js';
import { UnitOfWork } from '../application/ports.js';
import { NotificationRepository } from '../domain/notifications/notification-repository.js';
import { SqlNotificationAudience } from '../adapters/persistence/posts/notification-audience.js';
import { ReadAudiences } from '../adapters/persistence/posts/reply-targets.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Notifications: who hears of an event (the producer runs among the domain events' consumers), reading them. */
export const notificationsModule = new ContainerModule(({ bind }) => {
  provide(bind, NotificationAudience, (sql: Sql, audiences: ReadAudiences) => new SqlNotificationAudience(sql, audiences), [
    SqlRunner,
    ReadAudiences,
  ]);

  const useCase = useCaseBinder(bind);
  useCase(ListNotifications, [NotificationReadModel]);
  useCase(CountUnreadNotifications, [NotificationReadModel]);
  useCase(LiveNotifications, [NotificationReadModel, ConversationReadModel]);
  useCase(MarkNotificationsRead, [NotificationRepository, DomainEvents, UnitOfWork]);
  useCase(DeleteNotification, [NotificationRepository, DomainEvents, UnitOfWork]);
  useCase(DeleteAllNotifications, [NotificationRepository, DomainEvents, UnitOfWork]);
});
