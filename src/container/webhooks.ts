import { ContainerModule } from 'inversify';
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
import { SqlWebhookStore } from '../adapters/persistence/webhook-store.js';
import { WireWebhookSubjects } from '../adapters/presentation/webhook-subjects.js';
import { Wire } from '../adapters/presentation/wire.js';
import { HttpWebhookTransport } from '../adapters/webhooks/http-transport.js';
import type { Config } from '../config.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

/** Webhooks (contract §13): the subscriptions, what a delivery says and how it leaves. */
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
    (topics: TopicReadModel, replies: ReplyReadModel, users: UserReadModel, config: Config) =>
      new WireWebhookSubjects(topics, replies, users, new Wire(config.publicUrl)),
    [TopicReadModel, ReplyReadModel, UserReadModel, AppConfig],
  );

  const useCase = useCaseBinder(bind);
  useCase(ManageWebhooks, [WebhookStore, WebhookTransport, SecretGenerator, Clock]);
  useCase(DeliverWebhook, [WebhookStore, WebhookSubjects, WebhookTransport, Clock]);
});
