import 'reflect-metadata';
import { Container } from 'inversify';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Sql } from './adapters/persistence/sql.js';
import type { Config } from './config.js';
import { EventFeed } from './application/events.js';
import { AppConfig, Em, SqlRunner } from './container/bind.js';
import { systemModule } from './container/system.js';
import { persistenceModule } from './container/persistence.js';
import { eventsModule } from './container/events.js';
import { oauthModule } from './container/oauth.js';
import { topicsModule } from './container/topics.js';
import { repliesModule } from './container/replies.js';
import { notificationsModule } from './container/notifications.js';
import { usersModule } from './container/users.js';
import { nodesModule } from './container/nodes.js';
import { photosModule } from './container/photos.js';
import { searchModule } from './container/search.js';
import { webhooksModule } from './container/webhooks.js';
import { auditModule } from './container/audit.js';
import { maintenanceModule } from './container/maintenance.js';
import { httpModule } from './container/http.js';

/**
 * The one composition root, shared by the HTTP server, forumctl and the tests: one module per concern, each
 * use case bound once, in its feature's module (src/container/).
 */
export function buildContainer(persistence: { orm: MikroORM; sql: Sql; events: EventFeed }, config: Config): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(EventFeed).toConstantValue(persistence.events);
  container.bind(Em).toConstantValue(persistence.orm.em);
  container.bind(SqlRunner).toConstantValue(persistence.sql);
  container.bind(AppConfig).toConstantValue(config);
  container.load(
    systemModule,
    persistenceModule,
    eventsModule,
    oauthModule,
    topicsModule,
    repliesModule,
    notificationsModule,
    usersModule,
    nodesModule,
    photosModule,
    searchModule,
    webhooksModule,
    auditModule,
    maintenanceModule,
    httpModule,
  );
  return container;
}
