import 'reflect-metadata';
import { Container } from 'inversify';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Database } from '../adapters/persistence/database/database.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import type { Config } from '../config.js';
import { EventFeed } from '../application/events.js';
import { AppConfig, Em, ServerHost, SqlRunner } from './bind.js';
import { systemModule } from './system.js';
import { presentationModule } from './presentation.js';
import { persistenceModule } from './persistence.js';
import { eventsModule } from './events.js';
import { oauthModule } from './oauth.js';
import { secondFactorsModule } from './second-factors.js';
import { topicsModule } from './topics.js';
import { repliesModule } from './replies.js';
import { notificationsModule } from './notifications.js';
import { usersModule } from './users.js';
import { accountsModule } from './accounts.js';
import { nodesModule } from './nodes.js';
import { groupsModule } from './groups.js';
import { conversationsModule } from './conversations.js';
import { uploadsModule } from './uploads.js';
import { searchModule } from './search.js';
import { webhooksModule } from './webhooks.js';
import { mailModule } from './mail.js';
import { jobsModule } from './jobs.js';
import { auditModule } from './audit.js';
import { reviewModule } from './review.js';
import { maintenanceModule } from './maintenance.js';
import { importsModule } from './imports.js';
import { providersModule } from './providers.js';

/** What every container is built from: the ORM and the SQL runner of an open database, and its event feed. */
export interface ContainerPersistence {
  orm: MikroORM;
  sql: Sql;
  events: EventFeed;
}

/**
 * The core of the composition root: its inputs and one module per feature or concern, each use case bound once,
 * in its feature's module; no driving adapter's records. forumctl builds it alone and adds its own
 * (cli/container.ts); buildContainer (../container.ts) adds the API's, the pages' and the HTTP app's.
 */
export function buildCoreContainer(persistence: ContainerPersistence, config: Config): Container;
export function buildCoreContainer(database: Database, config: Config, server: Omit<ServerHost, 'database'>): Container;
export function buildCoreContainer(
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
    secondFactorsModule,
    topicsModule,
    repliesModule,
    notificationsModule,
    usersModule,
    accountsModule,
    nodesModule,
    groupsModule,
    conversationsModule,
    uploadsModule,
    searchModule,
    webhooksModule,
    mailModule,
    jobsModule,
    auditModule,
    reviewModule,
    maintenanceModule,
    importsModule,
    providersModule,
  );
  return container;
}
