import { ContainerModule } from 'inversify';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UnitOfWork } from '../application/ports.js';
import { EventFeed } from '../application/events.js';
import {
  NodeReadModel,
  NotificationReadModel,
  ReplyReadModel,
  SitemapReadModel,
  TopicReadModel,
  UserReadModel,
} from '../application/read-models.js';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { SectionRepository } from '../domain/nodes/section-repository.js';
import { NotificationRepository } from '../domain/notifications/notification-repository.js';
import { ReplyRepository } from '../domain/replies/reply-repository.js';
import { TopicRepository } from '../domain/topics/topic-repository.js';
import { UserRepository } from '../domain/users/user-repository.js';
import { SqlOutbox } from '../adapters/persistence/events/outbox.js';
import { SqlNodeReadModel } from '../adapters/persistence/read-models/nodes.js';
import { CachedNodeReadModel } from '../adapters/persistence/read-models/cached-nodes.js';
import { SqlNotificationReadModel } from '../adapters/persistence/read-models/notifications.js';
import { SqlReplyReadModel } from '../adapters/persistence/read-models/replies.js';
import { SqlSitemapReadModel } from '../adapters/persistence/read-models/sitemap.js';
import { SqlTopicReadModel } from '../adapters/persistence/read-models/topics.js';
import { SqlUserReadModel } from '../adapters/persistence/read-models/users.js';
import { MikroOrmNodeRepository } from '../adapters/persistence/repositories/nodes.js';
import { MikroOrmSectionRepository } from '../adapters/persistence/repositories/sections.js';
import { MikroOrmReplyRepository } from '../adapters/persistence/repositories/replies.js';
import { MikroOrmTopicRepository } from '../adapters/persistence/repositories/topics.js';
import { MikroOrmUserRepository } from '../adapters/persistence/repositories/users.js';
import { SqlNotificationRepository } from '../adapters/persistence/repositories/notifications.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { StagedRows } from '../adapters/persistence/staged/staged-rows.js';
import { ConflictRetries, MikroOrmUnitOfWork, OneStatementUnitOfWork } from '../adapters/persistence/database/unit-of-work.js';
import { Em, provide, ServerHost, SqlRunner } from './bind.js';

/**
 * What every feature writes and reads through: the units of work, the staged rows and the outbox, the aggregates'
 * repositories and the read models. A feature's own stores are bound in its module.
 */
export const persistenceModule = new ContainerModule(({ bind, isBound }) => {
  provide(bind, StagedRows, (sql: Sql) => new StagedRows(sql), [SqlRunner]);
  provide(bind, SqlOutbox, (staged: StagedRows) => new SqlOutbox(staged), [StagedRows]);
  provide(bind, ConflictRetries, () => new ConflictRetries(), []);
  provide(
    bind,
    UnitOfWork,
    (em: EntityManager, staged: StagedRows, conflicts: ConflictRetries) =>
      new MikroOrmUnitOfWork(em, () => staged.flush(), conflicts),
    [Em, StagedRows, ConflictRetries],
  );
  // Use cases whose every write is staged (reply create) take this one: no transaction.
  provide(
    bind,
    OneStatementUnitOfWork,
    (sql: Sql, staged: StagedRows, conflicts: ConflictRetries) =>
      new OneStatementUnitOfWork(sql, () => staged.flush(), conflicts),
    [SqlRunner, StagedRows, ConflictRetries],
  );
  provide(bind, UserRepository, (em: EntityManager, sql: Sql) => new MikroOrmUserRepository(em, sql), [Em, SqlRunner]);
  provide(bind, NodeRepository, (em: EntityManager, sql: Sql) => new MikroOrmNodeRepository(em, sql), [Em, SqlRunner]);
  provide(bind, SectionRepository, (em: EntityManager, sql: Sql) => new MikroOrmSectionRepository(em, sql), [Em, SqlRunner]);
  provide(bind, TopicRepository, (em: EntityManager, sql: Sql) => new MikroOrmTopicRepository(em, sql), [Em, SqlRunner]);
  provide(
    bind,
    ReplyRepository,
    (em: EntityManager, sql: Sql, staged: StagedRows) => new MikroOrmReplyRepository(em, sql, staged),
    [Em, SqlRunner, StagedRows],
  );
  provide(bind, NotificationRepository, (sql: Sql, staged: StagedRows) => new SqlNotificationRepository(sql, staged), [
    SqlRunner,
    StagedRows,
  ]);
  provide(bind, NotificationReadModel, (sql: Sql) => new SqlNotificationReadModel(sql), [SqlRunner]);
  provide(bind, ReplyReadModel, (sql: Sql) => new SqlReplyReadModel(sql), [SqlRunner]);
  provide(bind, TopicReadModel, (sql: Sql) => new SqlTopicReadModel(sql), [SqlRunner]);
  // A server keeps the node list everyone reads (cached-nodes.ts); forumctl and the tests read it afresh.
  if (isBound(ServerHost)) {
    provide(bind, NodeReadModel, (sql: Sql, feed: EventFeed) => new CachedNodeReadModel(new SqlNodeReadModel(sql), feed), [
      SqlRunner,
      EventFeed,
    ]);
  } else provide(bind, NodeReadModel, (sql: Sql) => new SqlNodeReadModel(sql), [SqlRunner]);
  provide(bind, UserReadModel, (sql: Sql) => new SqlUserReadModel(sql), [SqlRunner]);
  provide(bind, SitemapReadModel, (sql: Sql) => new SqlSitemapReadModel(sql), [SqlRunner]);
});
