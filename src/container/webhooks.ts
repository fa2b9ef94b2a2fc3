import { ContainerModule } from 'inversify';
import { ReviewReadModel } from '../application/review/ports.js';
import { Clock, SecretBox, SecretGenerator } from '../application/ports.js';
import { ReplyReadModel, TopicReadModel, UserReadModel } from '../application/read-models.js';
import {
  DeliverWebhook,
  ManageWebhooks,
  SealWebhookSecrets,
  WebhookStore,
  WebhookSubjects,
  WebhookTransport,
} from '../application/webhooks/webhooks.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { DELIVERY_TASK, SqlWebhookStore } from '../adapters/persistence/webhooks/webhook-store.js';
import { WireWebhookSubjects } from '../adapters/presentation/webhook-subjects.js';
import { Wire } from '../adapters/presentation/wire.js';
import { HttpWebhookTransport } from '../adapters/webhooks/http-transport.js';
import type { Config } from '../config.js';
import { webhookDeliveryTask } from '../adapters/jobs/tasks/webhook-delivery.js';
import { AppConfig, provide, ServerHost, SqlRunner, useCaseBinder } from './bind.js';
import { registerJobTasks, TaskMetrics } from './jobs.js';

/** Webhooks (contract §13): the subscriptions, what a delivery says and how it leaves, the task that sends it. */
export const webhooksModule = new ContainerModule(({ bind }) => {
  provide(bind, WebhookStore, (sql: Sql) => new SqlWebhookStore(sql), [SqlRunner]);
  provide(
    bind,
    WebhookTransport,
    (config: Config) => new HttpWebhookTransport({ allowPrivate: config.webhooks.allowPrivate, userAgent: 'forum-webhooks' }),
    [AppConfig],
  );
  provide(
    bind,
    WebhookSubjects,
    (topics: TopicReadModel, replies: ReplyReadModel, users: UserReadModel, review: ReviewReadModel, wire: Wire) =>
      new WireWebhookSubjects(topics, replies, users, review, wire),
    [TopicReadModel, ReplyReadModel, UserReadModel, ReviewReadModel, Wire],
  );

  const useCase = useCaseBinder(bind);
  useCase(ManageWebhooks, [WebhookStore, WebhookTransport, SecretGenerator, SecretBox, Clock]);
  useCase(DeliverWebhook, [WebhookStore, WebhookSubjects, WebhookTransport, SecretBox, Clock]);
  useCase(SealWebhookSecrets, [WebhookStore, SecretBox]);

  // Deliveries, in the processes that deliver (WEBHOOKS_CONCURRENCY above 0).
  registerJobTasks(
    bind,
    (deliver: DeliverWebhook, metrics: TaskMetrics, config: Config, server: ServerHost) =>
      config.webhooks.concurrency === 0
        ? []
        : [
            webhookDeliveryTask(deliver, {
              identifier: DELIVERY_TASK,
              concurrency: config.webhooks.concurrency,
              onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
              notice: (message, details) => server.logger.warn(details ?? {}, message),
            }),
          ],
    [DeliverWebhook, TaskMetrics, AppConfig, ServerHost],
  );
});
