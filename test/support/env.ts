import 'reflect-metadata';
import type Koa from 'koa';
import { pino } from 'pino';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import type { UseCases } from '../../src/application/use-cases.js';
import { loadConfig, type Config } from '../../src/config.js';
import { buildContainer, useCasesOf } from '../../src/container.js';
import { createApp } from '../../src/adapters/http/app.js';
import { connect, migrate, type Persistence } from '../../src/adapters/persistence/orm.js';
import { Wire } from '../../src/adapters/presentation/wire.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const PUBLIC_URL = 'http://forum.test';

/** Everything a test needs, on one real database shared by the run and emptied between tests. */
export interface TestEnv {
  config: Config;
  orm: MikroORM;
  useCases: UseCases;
  wire: Wire;
  app: Koa;
  /** Raw SQL against the test database (for arranging and for checking what landed). */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in a persistence context, as a request or a CLI action would. */
  scope<T>(work: () => Promise<T>): Promise<T>;
  reset(): Promise<void>;
}

let current: { env: TestEnv; database: TestDatabase; persistence: Persistence } | null = null;

export function testEnv(): TestEnv {
  if (!current) throw new Error('the test environment is not started (root hooks did not run)');
  return current.env;
}

export async function startTestEnv(): Promise<void> {
  const database = await createTestDatabase();
  const config: Config = {
    ...loadConfig({}),
    databaseUrl: database.url,
    publicUrl: PUBLIC_URL,
    // Small enough for a test to reach the limit and wait the window out.
    loginThrottle: { perAccount: 3, perAddress: 20, windowSeconds: 2 },
  };
  const persistence = await connect(database.url, { poolMax: 20 });
  const { orm } = persistence;
  await migrate(orm);
  const useCases = useCasesOf(buildContainer(persistence, config));
  const wire = new Wire(PUBLIC_URL);
  const scope = <T>(work: () => Promise<T>) => RequestContext.create(orm.em, work);
  const app = createApp({
    useCases,
    wire,
    scope,
    isReady: () => orm.isConnected(),
    logger: pino({ level: 'silent' }),
    tokenLifetimes: { accessSeconds: config.tokenLifetimeSeconds, refreshSeconds: config.refreshTokenLifetimeSeconds },
  });
  const env: TestEnv = {
    config,
    orm,
    useCases,
    wire,
    app,
    sql: (query, params = []) => orm.em.fork().execute(query, params as never[]),
    scope,
    reset: () => resetData(orm),
  };
  current = { env, database, persistence };
}

export async function stopTestEnv(): Promise<void> {
  if (!current) return;
  await current.persistence.close();
  await current.database.drop();
  current = null;
}

/** Empties every table but keeps what the first migration created (NoPoint and the system user). */
async function resetData(orm: MikroORM): Promise<void> {
  await orm.em.fork().execute(`
    truncate login_throttle, notifications, likes, topic_follows, topic_favorites, user_follows, user_blocks, node_blocks, oauth_tokens,
      oauth_clients, replies, topics restart identity cascade;
    delete from users where login <> 'system';
    delete from nodes where name <> 'NoPoint';
    update users set topics_count = 0, replies_count = 0, followers_count = 0, following_count = 0, favorites_count = 0;
    update nodes set topics_count = 0;
  `);
}
