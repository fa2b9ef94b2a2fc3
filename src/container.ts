import 'reflect-metadata';
import type { Container } from 'inversify';
import type { Database } from './adapters/persistence/database/database.js';
import type { Config } from './config.js';
import type { ServerHost } from './container/bind.js';
import { buildCoreContainer, type ContainerPersistence } from './container/core.js';
import { apiModule } from './container/api.js';
import { webModule } from './container/web.js';
import { httpModule } from './container/http.js';

export type { ContainerPersistence } from './container/core.js';

/**
 * The whole composition root, for the HTTP server and the tests: the core (src/container/core.ts, one module per
 * feature or concern) with the records of the API and of the pages (api.ts, web.ts: one module per driving adapter,
 * as forumctl's is cli/container.ts, which forumctl loads into the core alone) and the HTTP app made of them. A
 * serving process also gives its own (logger, version, place in a cluster): then the container builds the HTTP app
 * and the job runtime too.
 */
export function buildContainer(persistence: ContainerPersistence, config: Config): Container;
export function buildContainer(database: Database, config: Config, server: Omit<ServerHost, 'database'>): Container;
export function buildContainer(
  persistence: ContainerPersistence | Database,
  config: Config,
  server?: Omit<ServerHost, 'database'>,
): Container {
  const container = server
    ? buildCoreContainer(persistence as Database, config, server)
    : buildCoreContainer(persistence as ContainerPersistence, config);
  container.load(apiModule, webModule, httpModule);
  return container;
}
