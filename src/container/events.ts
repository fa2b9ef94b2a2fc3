import { ContainerModule } from 'inversify';
import { AuditTrail } from '../application/audit/audit-log.js';
import { CounterKeeper } from '../application/counters.js';
import { DispatchInTransaction, DomainEvents } from '../application/events.js';
import { MailProducer } from '../application/mail/mail-jobs.js';
import { NotificationMailer } from '../application/mail/notification-mail.js';
import { NotificationAudience, NotificationProducer } from '../application/notifications/producer.js';
import { SearchIndexer } from '../application/search/indexer.js';
import { ReviewQueueKeeper } from '../application/review/queue-keeper.js';
import { NotificationRepository } from '../domain/notifications/notification-repository.js';
import { SqlOutbox } from '../adapters/persistence/outbox.js';
import { StagedRows } from '../adapters/persistence/staged/staged-rows.js';
import { provide } from './bind.js';

/**
 * Domain events and their in-transaction consumers (../shared/design/events.md), in the order they run. Each
 * consumer is bound in its feature's module.
 */
export const eventsModule = new ContainerModule(({ bind }) => {
  provide(
    bind,
    DomainEvents,
    (
      counters: StagedRows,
      audience: NotificationAudience,
      notifications: NotificationRepository,
      search: SearchIndexer,
      audit: AuditTrail,
      outbox: SqlOutbox,
      mail: MailProducer,
      review: ReviewQueueKeeper,
      notificationMail: NotificationMailer,
    ) =>
      new DispatchInTransaction([
        new CounterKeeper(counters),
        new NotificationProducer(audience, notifications),
        search,
        audit,
        outbox,
        mail,
        review,
        notificationMail,
      ]),
    [
      StagedRows,
      NotificationAudience,
      NotificationRepository,
      SearchIndexer,
      AuditTrail,
      SqlOutbox,
      MailProducer,
      ReviewQueueKeeper,
      NotificationMailer,
    ],
  );
});
