import { SetNodeAccess } from '../../src/application/nodes/node-access.js';
import 'reflect-metadata';
import { NotificationStreams } from '../../src/adapters/api/notification-streams.js';
import type Koa from 'koa';
import { pino } from 'pino';
import pg from 'pg';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FolderStorage } from '../../src/adapters/storage/folder-storage.js';
import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { type Container, ContainerModule } from 'inversify';
import { loadConfig, type Config } from '../../src/config.js';
import { Clock } from '../../src/application/ports.js';
import { buildContainer } from '../../src/container.js';
import { record } from '../../src/container/bind.js';
import { UploadedFilesStore } from '../../src/container/uploads.js';
import type { UploadedFiles } from '../../src/adapters/api/routes/uploads.js';
import { forumctlModule } from '../../cli/container.js';
import { LikeObject } from '../../src/application/likes/like.js';
import { CreateNode } from '../../src/application/nodes/manage-nodes.js';
import { LiveNotifications } from '../../src/application/notifications/live-notifications.js';
import { CountUnreadNotifications } from '../../src/application/notifications/manage-notifications.js';
import { ReplyReadModel, TopicReadModel } from '../../src/application/read-models.js';
import { CreateReply } from '../../src/application/replies/create-reply.js';
import { DeleteReply } from '../../src/application/replies/delete-reply.js';
import { Authenticate, IssueToken, RevokeToken } from '../../src/application/tokens/access-tokens.js';
import { CreateTopic } from '../../src/application/topics/create-topic.js';
import { DeleteTopic } from '../../src/application/topics/delete-topic.js';
import { MoveTopic } from '../../src/application/topics/move-topic.js';
import { ShowTopic } from '../../src/application/topics/show-topic.js';
import { TopicAction } from '../../src/application/topics/topic-action.js';
import { FavoriteTopic, FollowTopic } from '../../src/application/topics/topic-relations.js';
import { UpdateTopic } from '../../src/application/topics/update-topic.js';
import { CreateUser } from '../../src/application/users/create-user.js';
import { ChangeRole } from '../../src/application/users/manage-users.js';
import { DeliverWebhook } from '../../src/application/webhooks/webhooks.js';
import { createApp, type HttpDependencies, HttpUseCases } from '../../src/server/app.js';
import { connect, migrate, type Persistence } from '../../src/adapters/persistence/database/orm.js';
import { Wire } from '../../src/adapters/presentation/wire.js';
import { isDatabaseUnavailable } from '../../src/adapters/persistence/database/unavailable.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const PUBLIC_URL = 'http://forum.test';

/** The use cases and read models tests call directly: to arrange, or to check a rule below the wire. */
export interface TestUseCases {
  authenticate: Authenticate;
  issueToken: IssueToken;
  revokeToken: RevokeToken;
  createUser: CreateUser;
  changeRole: ChangeRole;
  createNode: CreateNode;
  setNodeAccess: SetNodeAccess;
  createTopic: CreateTopic;
  updateTopic: UpdateTopic;
  deleteTopic: DeleteTopic;
  showTopic: ShowTopic;
  followTopic: FollowTopic;
  favoriteTopic: FavoriteTopic;
  topicAction: TopicAction;
  moveTopic: MoveTopic;
  createReply: CreateReply;
  deleteReply: DeleteReply;
  like: LikeObject;
  countUnreadNotifications: CountUnreadNotifications;
  liveNotifications: LiveNotifications;
  deliverWebhook: DeliverWebhook;
  topics: TopicReadModel;
  replies: ReplyReadModel;
}
const TestUseCases = Symbol.for('TestUseCases');

const testModule = new ContainerModule(({ bind }) => {
  record<TestUseCases>(bind, TestUseCases, {
    authenticate: Authenticate,
    issueToken: IssueToken,
    revokeToken: RevokeToken,
    createUser: CreateUser,
    changeRole: ChangeRole,
    createNode: CreateNode,
    setNodeAccess: SetNodeAccess,
    createTopic: CreateTopic,
    updateTopic: UpdateTopic,
    deleteTopic: DeleteTopic,
    showTopic: ShowTopic,
    followTopic: FollowTopic,
    favoriteTopic: FavoriteTopic,
    topicAction: TopicAction,
    moveTopic: MoveTopic,
    createReply: CreateReply,
    deleteReply: DeleteReply,
    like: LikeObject,
    countUnreadNotifications: CountUnreadNotifications,
    liveNotifications: LiveNotifications,
    deliverWebhook: DeliverWebhook,
    topics: TopicReadModel,
    replies: ReplyReadModel,
  });
});

/** Everything a test needs, on one real database shared by the run and emptied between tests. */
export interface TestEnv {
  config: Config;
  orm: MikroORM;
  /** The service's own SQL runner (what repositories and read models use). */
  persistence: Persistence;
  /** The composition root the app was built from, as the processes build it (forumctl's module loaded too). */
  container: Container;
  useCases: TestUseCases;
  wire: Wire;
  app: Koa;
  /** Raw SQL (`$1` placeholders) against the test database, for arranging and for checking what landed. */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in a persistence context, as a request or a CLI action would. */
  scope<T>(work: () => Promise<T>): Promise<T>;
  reset(): Promise<void>;
}

let current: {
  env: TestEnv;
  database: TestDatabase;
  persistence: Persistence;
  pool: pg.Pool;
  dependencies: HttpDependencies;
} | null = null;

export function testEnv(): TestEnv {
  if (!current) throw new Error('the test environment is not started (root hooks did not run)');
  return current.env;
}

/**
 * Another composition root and app on the test database, with some configuration changed (a registration mode), and
 * maybe a clock of the test's: as a second server process with other settings would be.
 */
export function configuredWith(changes: Partial<Config>, options: { clock?: Clock } = {}): { container: Container; app: Koa } {
  if (!current) throw new Error('the test environment is not started (root hooks did not run)');
  const container = buildContainer(current.persistence, { ...current.env.config, ...changes });
  container.load(forumctlModule, testModule);
  // A clock of the test's (moved by it): what this container's use cases take for now.
  if (options.clock) container.rebind(Clock).toConstantValue(options.clock);
  // Files served from the store this configuration uses (UPLOADS_STORE, UPLOADS_DIR), as its server would.
  const app = createApp({
    ...current.dependencies,
    useCases: container.get<HttpUseCases>(HttpUseCases),
    uploads: container.get<UploadedFiles>(UploadedFilesStore),
  });
  return { container, app };
}

/** What the test app was built from: to build another app on the same database, with something changed. */
export function appDependencies(): HttpDependencies {
  if (!current) throw new Error('the test environment is not started (root hooks did not run)');
  return current.dependencies;
}

export async function startTestEnv(): Promise<void> {
  const database = await createTestDatabase();
  const uploadsDir = await mkdtemp(path.join(os.tmpdir(), 'forum-uploads-'));
  const mailFolder = await mkdtemp(path.join(os.tmpdir(), 'forum-mail-'));
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    databaseUrl: database.url,
    uploadsDir,
    publicUrl: PUBLIC_URL,
    // Small enough for a test to reach the limit and wait the window out.
    loginThrottle: { perAccount: 3, perAddress: 20, windowSeconds: 2 },
    // Test receivers listen on 127.0.0.1; webhook workers run only where a test starts one.
    webhooks: { allowPrivate: true, concurrency: 0 },
    // Given, so that no test writes a key file into the working tree.
    secretKey: 'a test secret key, 32 characters or more',
    // Mail is written to a folder of the run's own (no SMTP_URL); mail workers run only where a test starts one.
    mail: {
      ...defaults.mail,
      from: 'forum <noreply@forum.test>',
      folder: mailFolder,
      concurrency: 0,
      topicUrl: `${PUBLIC_URL}/topics/{id}`,
    },
  };
  const persistence = await connect(database.url, { poolMax: 20 });
  const { orm } = persistence;
  const pool = new pg.Pool({ connectionString: database.url, max: 5 });
  await migrate(orm);
  const reset = await resetStatement(pool);
  const container = buildContainer(persistence, config);
  container.load(forumctlModule, testModule);
  const useCases = container.get<TestUseCases>(TestUseCases);
  const wire = container.get(Wire);
  const scope = <T>(work: () => Promise<T>) => RequestContext.create(orm.em, work);
  const dependencies: HttpDependencies = {
    useCases: container.get<HttpUseCases>(HttpUseCases),
    wire,
    scope,
    isReady: () => orm.isConnected(),
    isUnavailable: isDatabaseUnavailable,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    tokenLifetimes: { accessSeconds: config.tokenLifetimeSeconds, refreshSeconds: config.refreshTokenLifetimeSeconds },
    uploads: container.get(FolderStorage),
    publicUrl: PUBLIC_URL,
    notificationStreams: new NotificationStreams(useCases.liveNotifications, persistence.events, wire, { keepAliveMs: 500 }),
  };
  const app = createApp(dependencies);
  const env: TestEnv = {
    config,
    orm,
    persistence,
    container,
    useCases,
    wire,
    app,
    sql: async <T>(query: string, params: unknown[] = []) => (await pool.query(query, params)).rows as T[],
    scope,
    reset: async () => void (await pool.query(reset)),
  };
  current = { env, database, persistence, pool, dependencies };
}

export async function stopTestEnv(): Promise<void> {
  if (!current) return;
  await current.pool.end();
  await current.persistence.close();
  await rm(current.env.config.uploadsDir, { recursive: true, force: true });
  await rm(current.env.config.mail.folder, { recursive: true, force: true });
  await current.database.drop();
  current = null;
}

/**
 * Tables a reset keeps: the built-ins (the system user, NoPoint; sections go), the migrations and what they derived, and
 * the outbox's events, whose ids every process's feed follows; rate-limit counts are keyed by window.
 */
const KEPT_TABLES = ['users', 'nodes', 'sections', 'events', 'rate_limit_counts', 'derived_definitions', 'mikro_orm_migrations'];

/**
 * What empties every table but keeps what the first migration created (NoPoint and the system user), as one
 * statement made once from the catalog, so that a table a migration adds is emptied too. Deleting the few rows a test
 * left is some twenty times faster than truncating some forty tables (a truncate makes each table's files anew):
 * that was two to three minutes of each run. Rows go with triggers and foreign keys off (`session_replication_role`,
 * for a superuser: the audit log refuses deletes, and every table is emptied anyway); sequences start again, as
 * `truncate … restart identity` had them.
 */
async function resetStatement(pool: pg.Pool): Promise<string> {
  const { rows: tables } = await pool.query<{ name: string; sequences: string[] }>(
    `select c.relname as name,
       array(select s from (select pg_get_serial_sequence(format('%I', c.relname), a.attname) as s
         from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) x where s is not null) as sequences
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname <> all($1) order by c.relname`,
    [KEPT_TABLES],
  );
  const [{ superuser }] = (
    await pool.query<{ superuser: boolean }>('select rolsuper as superuser from pg_roles where rolname = current_user')
  ).rows as [{ superuser: boolean }];
  const names = tables.map((table) => pg.escapeIdentifier(table.name));
  const sequences = tables.flatMap((table) => table.sequences);
  const emptied = superuser
    ? `set local session_replication_role = replica;
       ${names.map((name) => `delete from ${name};`).join(' ')}
       select ${sequences.map((sequence) => `setval(${pg.escapeLiteral(sequence)}, 1, false)`).join(', ')};`
    : `truncate ${names.join(', ')} restart identity cascade;`;
  return `begin;
    ${emptied}
    delete from users where login <> 'system';
    delete from nodes where name <> 'NoPoint';
    -- An import (contract §20) moves the built-ins out of homeland's ids: every other test finds them at 1.
    update users set id = 1 where login = 'system' and id <> 1;
    update nodes set id = 1 where name = 'NoPoint' and id <> 1;
    delete from sections;
    update users set topics_count = 0, replies_count = 0, followers_count = 0, following_count = 0, favorites_count = 0,
      group_ids = '{}';
    update nodes set topics_count = 0;
    -- Queued jobs (mail, webhook deliveries) belong to the test that made them: a server process a later test
    -- starts would otherwise work through every earlier test's mail.
    delete from graphile_worker._private_jobs;
    commit;`;
}
