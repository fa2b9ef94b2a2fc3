import { ContainerModule } from 'inversify';
import { ReviewReadModel } from '../application/review/ports.js';
import { Clock, SecretGenerator } from '../application/ports.js';
import { ReplyReadModel, TopicReadModel, UserReadModel } from '../application/read-models.js';
import {
  DeliverWebhook,
  ManageWebhooks,
  WebhookStore,
  WebhookSubjects,
  WebhookTransport,
} from '../application/webhooks/webhooks.js';
import type { Sql } from '../adapters/persistence/sql.js';
import { DELIVERY_TASK, SqlWebhookStore } from '../adapters/persistence/webhook-store.js';
import { ServiceMetrics } from '../adapters/api/metrics.js';
import { WireWebhookSubjects } from '../adapters/presentation/webhook-subjects.js';
import { Wire } from '../adapters/presentation/wire.js';
import { WebhookWorker } from '../adapters/webhooks/delivery-worker.js';
import { HttpWebhookTransport } from '../adapters/webhooks/http-transport.js';
import type { Config } from '../config.js';
import { AppConfig, provide, ServerHost, SqlRunner, useCaseBinder } from './bind.js';

/** Starts this server process's webhook deliveries (its share of the queue); stop it before the database. */
export type StartWebhookWorker = () => Promise<WebhookWorker>;
export const StartWebhookWorker = Symbol.for('StartWebhookWorker');

/** Webhooks (contract §13): the subscriptions, what a delivery says and how it leaves, the worker that sends it. */
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
  useCase(ManageWebhooks, [WebhookStore, WebhookTransport, SecretGenerator, Clock]);
  useCase(DeliverWebhook, [WebhookStore, WebhookSubjects, WebhookTransport, Clock]);

  provide(
    bind,
    StartWebhookWorker,
    (deliver: DeliverWebhook, metrics: ServiceMetrics, config: Config, server: ServerHost): StartWebhookWorker =>
      () =>
        WebhookWorker.start(server.database.orm.config.get('clientUrl') as string, deliver, {
          task: DELIVERY_TASK,
          concurrency: config.webhooks.concurrency,
          scope: server.database.scope,
          onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
          notice: (message, details) => server.logger.warn(details ?? {}, message),
        }),
    [DeliverWebhook, ServiceMetrics, AppConfig, ServerHost],
  );
});
