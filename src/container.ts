import 'reflect-metadata';
import { Container } from 'inversify';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Database } from './adapters/persistence/database.js';
import type { Sql } from './adapters/persistence/sql.js';
import type { Config } from './config.js';
import { EventFeed } from './application/events.js';
import { AppConfig, Em, ServerHost, SqlRunner } from './container/bind.js';
import { systemModule } from './container/system.js';
import { presentationModule } from './container/presentation.js';
import { persistenceModule } from './container/persistence.js';
import { eventsModule } from './container/events.js';
import { oauthModule } from './container/oauth.js';
import { topicsModule } from './container/topics.js';
import { repliesModule } from './container/replies.js';
import { notificationsModule } from './container/notifications.js';
import { usersModule } from './container/users.js';
import { accountsModule } from './container/accounts.js';
import { nodesModule } from './container/nodes.js';
import { uploadsModule } from './container/uploads.js';
import { searchModule } from './container/search.js';
import { webhooksModule } from './container/webhooks.js';
import { mailModule } from './container/mail.js';
import { jobsModule } from './container/jobs.js';
import { auditModule } from './container/audit.js';
import { reviewModule } from './container/review.js';
import { maintenanceModule } from './container/maintenance.js';
import { importsModule } from './container/imports.js';
import { httpModule } from './container/http.js';

/** What every container is built from: the ORM and the SQL runner of an open database, and its event feed. */
export interface ContainerPersistence {
  orm: MikroORM;
  sql: Sql;
  events: EventFeed;
}

/**
 * The one composition root, shared by the HTTP server, forumctl and the tests: one module per concern
 * (src/container/), each use case bound once, in its feature's module. A serving process also gives its own
 * (logger, version, place in a cluster): then the container builds the HTTP app and the job runtime too.
 */
export function buildContainer(persistence: ContainerPersistence, config: Config): Container;
export function buildContainer(database: Database, config: Config, server: Omit<ServerHost, 'database'>): Container;
export function buildContainer(
  persistence: ContainerPersistence | Database,
  config: Config,
  server?: Omit<ServerHost, 'database'>,
): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(EventFeed).toConstantValue(persistence.events);
  container.bind(Em).toConstantValue(persistence.orm.em);
  container.bind(SqlRunner).toConstantValue(persistence.sql);
  container.bind(AppConfig).toConstantValue(config);
  if (server) container.bind(ServerHost).toConstantValue({ ...server, database: persistence as Database });
  container.load(
    systemModule,
    presentationModule,
    persistenceModule,
    eventsModule,
    oauthModule,
    topicsModule,
    repliesModule,
    notificationsModule,
    usersModule,
    accountsModule,
    nodesModule,
    uploadsModule,
    searchModule,
    webhooksModule,
    mailModule,
    jobsModule,
    auditModule,
    reviewModule,
    maintenanceModule,
    importsModule,
    httpModule,
  );
  return container;
}
