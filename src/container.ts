import 'reflect-metadata';
import { Container, ContainerModule, type ContainerModuleLoadOptions, type ServiceIdentifier } from 'inversify';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { Clock, MarkdownRenderer, PasswordHasher, SecretGenerator, UnitOfWork } from './application/ports.js';
import {
  NodeReadModel,
  NotificationReadModel,
  ReplyReadModel,
  TopicReadModel,
  UserReadModel,
} from './application/read-models.js';
import { LikeObject } from './application/likes/like.js';
import { CreateReply } from './application/replies/create-reply.js';
import { DeleteReply } from './application/replies/delete-reply.js';
import { ListReplies } from './application/replies/list-replies.js';
import { ReplyTargets } from './application/replies/reply-targets.js';
import { ReadAudiences, SqlReplyTargets } from './adapters/persistence/reply-targets.js';
import { NotificationAudience, NotificationProducer } from './application/notifications/producer.js';
import { CounterKeeper } from './application/counters.js';
import { SqlNotificationAudience } from './adapters/persistence/notification-audience.js';
import { UpdateReply } from './application/replies/update-reply.js';
import { LiveNotifications } from './application/notifications/live-notifications.js';
import { SqlOutbox } from './adapters/persistence/outbox.js';
import { StagedRows } from './adapters/persistence/staged-rows.js';
import {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from './application/notifications/manage-notifications.js';
import { LikeRepository } from './domain/likes/like-repository.js';
import { UseCases } from './application/use-cases.js';
import { CreateNode, SetNodeHidden } from './application/nodes/manage-nodes.js';
import {
  AccessTokenStore,
  Authenticate,
  DescribeToken,
  IssueToken,
  ListTokens,
  LookupRefreshToken,
  PurgeTokens,
  RevokeAllTokens,
  RevokeToken,
} from './application/tokens/access-tokens.js';
import { ApproveAuthorization, CheckAuthorizationRequest, RedeemAuthorizationCode } from './application/oauth/authorization.js';
import { AuthorizationCodeStore } from './application/oauth/authorization-codes.js';
import { ResolveWebSession, SignIn, SignOut, WebSessionStore } from './application/oauth/web-sessions.js';
import { AuthenticateClient, ClientStore, CreateApp, ListApps } from './application/oauth/clients.js';
import { PasswordLogin } from './application/oauth/password-login.js';
import { CredentialThrottle } from './application/oauth/credential-throttle.js';
import { PostgresCredentialThrottle, SqlClientStore } from './adapters/persistence/oauth-stores.js';
import { CreateTopic } from './application/topics/create-topic.js';
import { DeleteTopic } from './application/topics/delete-topic.js';
import { ListTopics } from './application/topics/list-topics.js';
import { MoveTopic } from './application/topics/move-topic.js';
import { MoveNodeTopics } from './application/topics/move-node-topics.js';
import {
  CounterMaintenance,
  PurgeEvents,
  PurgeDeliveries,
  PurgeNotifications,
  Recount,
} from './application/maintenance/maintenance.js';
import { SqlCounterMaintenance } from './adapters/persistence/counter-maintenance.js';
import { DataSeeder, SeedDatabase } from './application/maintenance/seed.js';
import { SqlDataSeeder } from './adapters/persistence/seeder.js';
import { TopicRelocation } from './application/topics/relocation.js';
import { ShowTopic } from './application/topics/show-topic.js';
import { TopicAction } from './application/topics/topic-action.js';
import { FavoriteTopic, FollowTopic } from './application/topics/topic-relations.js';
import { UpdateTopic } from './application/topics/update-topic.js';
import { CreateUser } from './application/users/create-user.js';
import { BlockNode, BlockUser, ChangeRole, FollowUser, ShowUser } from './application/users/manage-users.js';
import { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from './application/users/user-lists.js';
import { ListActiveUsers, ListBlockedUsers } from './application/users/community.js';
import { DeviceRegistry, ManageDevices } from './application/devices/devices.js';
import { UploadPhoto } from './application/photos/upload-photo.js';
import { FileTypes, UploadStorage } from './application/ports.js';
import { SignatureFileTypes } from './adapters/system/file-types.js';
import { FolderStorage } from './adapters/storage/folder-storage.js';
import { NodeRepository } from './domain/nodes/node-repository.js';
import { NotificationRepository } from './domain/notifications/notification-repository.js';
import { ReplyRepository } from './domain/replies/reply-repository.js';
import { TopicRepository } from './domain/topics/topic-repository.js';
import { UserRepository } from './domain/users/user-repository.js';
import { SqlNodeReadModel } from './adapters/persistence/read-models/nodes.js';
import { SqlNotificationReadModel } from './adapters/persistence/read-models/notifications.js';
import { SqlReplyReadModel } from './adapters/persistence/read-models/replies.js';
import { SqlTopicReadModel } from './adapters/persistence/read-models/topics.js';
import { SqlUserReadModel } from './adapters/persistence/read-models/users.js';
import { MikroOrmNodeRepository } from './adapters/persistence/repositories/nodes.js';
import { MikroOrmReplyRepository } from './adapters/persistence/repositories/replies.js';
import { MikroOrmTopicRepository } from './adapters/persistence/repositories/topics.js';
import { MikroOrmUserRepository } from './adapters/persistence/repositories/users.js';
import { SqlDeviceRegistry } from './adapters/persistence/repositories/devices.js';
import { SqlLikeRepository } from './adapters/persistence/repositories/likes.js';
import { SqlNotificationRepository } from './adapters/persistence/repositories/notifications.js';
import { SqlAccessTokenStore, SqlAuthorizationCodeStore, SqlWebSessionStore } from './adapters/persistence/token-stores.js';
import { MikroOrmUnitOfWork, OneStatementUnitOfWork } from './adapters/persistence/unit-of-work.js';
import type { Sql } from './adapters/persistence/sql.js';
import { Argon2PasswordHasher } from './adapters/system/argon2-hasher.js';
import { SystemClock } from './adapters/system/clock.js';
import { SanitizingMarkdownRenderer } from './adapters/system/markdown.js';
import { RandomSecretGenerator } from './adapters/system/secret-generator.js';
import type { Config } from './config.js';
import { DispatchInTransaction, DomainEvents, EventFeed } from './application/events.js';
import { HtmlText, SearchIndex, SearchReadModel, WordSegmenter } from './application/search/ports.js';
import {
  DeliverWebhook,
  ManageWebhooks,
  WebhookStore,
  WebhookSubjects,
  WebhookTransport,
} from './application/webhooks/webhooks.js';
import { SqlWebhookStore } from './adapters/persistence/webhook-store.js';
import { AuditLog, AuditTrail, ListAudit } from './application/audit/audit-log.js';
import { SqlAuditLog } from './adapters/persistence/audit-log.js';
import { HttpWebhookTransport } from './adapters/webhooks/http-transport.js';
import { WireWebhookSubjects } from './adapters/presentation/webhook-subjects.js';
import { Wire } from './adapters/presentation/wire.js';
import { SearchIndexer } from './application/search/indexer.js';
import { SearchContent } from './application/search/search.js';
import { ReindexSearch } from './application/search/reindex.js';
import { SqlSearchIndex, SqlSearchReadModel } from './adapters/persistence/search.js';
import { JiebaSegmenter } from './adapters/system/jieba-segmenter.js';
import { ParsedHtmlText } from './adapters/system/html-text.js';

const Em = Symbol.for('EntityManager');
const SqlRunner = Symbol.for('Sql');
const AppConfig = Symbol.for('Config');

type Bind = ContainerModuleLoadOptions['bind'];

/** A singleton built by `factory` from the services named in `deps`, in order: no decorators in the core. */
function provide<T, A extends unknown[]>(
  bind: Bind,
  id: ServiceIdentifier<T>,
  factory: (...args: A) => T,
  deps: ServiceIdentifier[],
): void {
  bind(id)
    .toResolvedValue(factory as (...args: unknown[]) => T, deps as never)
    .inSingletonScope();
}

const systemModule = new ContainerModule(({ bind }) => {
  bind(Clock).toConstantValue(new SystemClock());
  bind(PasswordHasher).toConstantValue(new Argon2PasswordHasher());
  bind(SecretGenerator).toConstantValue(new RandomSecretGenerator());
  bind(MarkdownRenderer).toConstantValue(new SanitizingMarkdownRenderer());
  bind(FileTypes).toConstantValue(new SignatureFileTypes());
  bind(WordSegmenter).toConstantValue(new JiebaSegmenter());
  bind(HtmlText).toConstantValue(new ParsedHtmlText());
});

const persistenceModule = new ContainerModule(({ bind }) => {
  provide(bind, StagedRows, (sql: Sql) => new StagedRows(sql), [SqlRunner]);
  provide(bind, SqlOutbox, (staged: StagedRows) => new SqlOutbox(staged), [StagedRows]);
  provide(bind, UnitOfWork, (em: EntityManager, staged: StagedRows) => new MikroOrmUnitOfWork(em, () => staged.flush()), [
    Em,
    StagedRows,
  ]);
  // Use cases whose every write is staged (reply create) take this one: no transaction.
  provide(bind, OneStatementUnitOfWork, (sql: Sql, staged: StagedRows) => new OneStatementUnitOfWork(sql, () => staged.flush()), [
    SqlRunner,
    StagedRows,
  ]);
  provide(bind, UserRepository, (em: EntityManager, sql: Sql) => new MikroOrmUserRepository(em, sql), [Em, SqlRunner]);
  provide(bind, NodeRepository, (em: EntityManager, sql: Sql) => new MikroOrmNodeRepository(em, sql), [Em, SqlRunner]);
  provide(bind, TopicRepository, (em: EntityManager, sql: Sql) => new MikroOrmTopicRepository(em, sql), [Em, SqlRunner]);
  provide(
    bind,
    ReplyRepository,
    (em: EntityManager, sql: Sql, staged: StagedRows) => new MikroOrmReplyRepository(em, sql, staged),
    [Em, SqlRunner, StagedRows],
  );
  provide(bind, ReadAudiences, (sql: Sql) => new ReadAudiences(sql), [SqlRunner]);
  provide(bind, ReplyTargets, (sql: Sql, audiences: ReadAudiences) => new SqlReplyTargets(sql, audiences), [
    SqlRunner,
    ReadAudiences,
  ]);
  provide(bind, NotificationAudience, (sql: Sql, audiences: ReadAudiences) => new SqlNotificationAudience(sql, audiences), [
    SqlRunner,
    ReadAudiences,
  ]);
  provide(bind, NotificationRepository, (sql: Sql, staged: StagedRows) => new SqlNotificationRepository(sql, staged), [
    SqlRunner,
    StagedRows,
  ]);
  provide(bind, AccessTokenStore, (sql: Sql) => new SqlAccessTokenStore(sql), [SqlRunner]);
  provide(bind, AuthorizationCodeStore, (sql: Sql) => new SqlAuthorizationCodeStore(sql), [SqlRunner]);
  provide(bind, WebSessionStore, (sql: Sql) => new SqlWebSessionStore(sql), [SqlRunner]);
  provide(bind, ClientStore, (sql: Sql) => new SqlClientStore(sql), [SqlRunner]);
  provide(
    bind,
    CredentialThrottle,
    (em: EntityManager, config: Config) => new PostgresCredentialThrottle(em, config.loginThrottle),
    [Em, AppConfig],
  );
  provide(bind, CounterMaintenance, (sql: Sql, uow: UnitOfWork) => new SqlCounterMaintenance(sql, uow), [SqlRunner, UnitOfWork]);
  provide(bind, DataSeeder, (sql: Sql, uow: UnitOfWork) => new SqlDataSeeder(sql, uow), [SqlRunner, UnitOfWork]);
  provide(bind, LikeRepository, (sql: Sql) => new SqlLikeRepository(sql), [SqlRunner]);
  provide(bind, DeviceRegistry, (sql: Sql) => new SqlDeviceRegistry(sql), [SqlRunner]);
  provide(bind, UploadStorage, (config: Config) => new FolderStorage(config.uploadsDir, config.publicUrl), [AppConfig]);
  provide(bind, NotificationReadModel, (sql: Sql) => new SqlNotificationReadModel(sql), [SqlRunner]);
  provide(bind, ReplyReadModel, (sql: Sql) => new SqlReplyReadModel(sql), [SqlRunner]);
  provide(bind, TopicReadModel, (sql: Sql) => new SqlTopicReadModel(sql), [SqlRunner]);
  provide(bind, NodeReadModel, (sql: Sql) => new SqlNodeReadModel(sql), [SqlRunner]);
  provide(bind, UserReadModel, (sql: Sql) => new SqlUserReadModel(sql), [SqlRunner]);
  provide(bind, SearchIndex, (sql: Sql, staged: StagedRows) => new SqlSearchIndex(sql, staged), [SqlRunner, StagedRows]);
  provide(bind, SearchReadModel, (sql: Sql) => new SqlSearchReadModel(sql), [SqlRunner]);
  provide(bind, WebhookStore, (sql: Sql) => new SqlWebhookStore(sql), [SqlRunner]);
  provide(bind, AuditLog, (sql: Sql) => new SqlAuditLog(sql), [SqlRunner]);
});

/** Webhooks (contract §13): what a delivery says and how it leaves. */
const webhooksModule = new ContainerModule(({ bind }) => {
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
});

/** Domain events and their in-transaction consumers (../shared/design/events.md). */
const eventsModule = new ContainerModule(({ bind }) => {
  provide(
    bind,
    SearchIndexer,
    (index: SearchIndex, segmenter: WordSegmenter, html: HtmlText) => new SearchIndexer(index, segmenter, html),
    [SearchIndex, WordSegmenter, HtmlText],
  );
  provide(bind, AuditTrail, (log: AuditLog, clock: Clock) => new AuditTrail(log, clock), [AuditLog, Clock]);
  provide(
    bind,
    DomainEvents,
    (
      counters: StagedRows,
      audience: NotificationAudience,
      notifications: NotificationRepository,
      search: SearchIndexer,
      audit: AuditTrail,
      outbox: SqlOutbox,
    ) =>
      new DispatchInTransaction([
        new CounterKeeper(counters),
        new NotificationProducer(audience, notifications),
        search,
        audit,
        outbox,
      ]),
    [StagedRows, NotificationAudience, NotificationRepository, SearchIndexer, AuditTrail, SqlOutbox],
  );
});

const useCaseModule = new ContainerModule(({ bind }) => {
  const useCase = <T, A extends unknown[]>(Class: new (...args: A) => T, deps: ServiceIdentifier[]) =>
    provide(bind, Class, (...args: A) => new Class(...args), deps);

  useCase(Authenticate, [AccessTokenStore, SecretGenerator, Clock]);
  provide(
    bind,
    IssueToken,
    (store: AccessTokenStore, secrets: SecretGenerator, clock: Clock, config: Config) =>
      new IssueToken(store, secrets, clock, {
        accessSeconds: config.tokenLifetimeSeconds,
        refreshSeconds: config.refreshTokenLifetimeSeconds,
      }),
    [AccessTokenStore, SecretGenerator, Clock, AppConfig],
  );
  useCase(RevokeToken, [AccessTokenStore, SecretGenerator, DomainEvents, UnitOfWork, Clock]);
  useCase(LookupRefreshToken, [AccessTokenStore, SecretGenerator, Clock]);
  useCase(PurgeTokens, [AccessTokenStore, AuthorizationCodeStore, WebSessionStore, Clock]);
  useCase(DescribeToken, [AccessTokenStore, SecretGenerator, Clock]);
  useCase(ListTokens, [AccessTokenStore, UserRepository, Clock]);
  useCase(RevokeAllTokens, [AccessTokenStore, WebSessionStore, UserRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(PasswordLogin, [UserRepository, PasswordHasher, CredentialThrottle]);
  useCase(CheckAuthorizationRequest, [ClientStore]);
  useCase(ApproveAuthorization, [AuthorizationCodeStore, SecretGenerator, Clock]);
  useCase(RedeemAuthorizationCode, [AuthorizationCodeStore, AccessTokenStore, SecretGenerator, Clock]);
  useCase(SignIn, [PasswordLogin, WebSessionStore, SecretGenerator, Clock]);
  useCase(ResolveWebSession, [WebSessionStore, SecretGenerator, Clock]);
  useCase(SignOut, [WebSessionStore, SecretGenerator]);
  useCase(AuthenticateClient, [ClientStore, SecretGenerator, CredentialThrottle]);
  useCase(CreateApp, [ClientStore, SecretGenerator, DomainEvents, UnitOfWork, Clock]);
  useCase(ListApps, [ClientStore]);

  useCase(TopicRelocation, [NodeRepository, DomainEvents]);
  useCase(ListTopics, [TopicReadModel]);
  useCase(ShowTopic, [TopicReadModel]);
  useCase(CreateTopic, [TopicRepository, TopicRelocation, MarkdownRenderer, DomainEvents, UnitOfWork, Clock]);
  useCase(UpdateTopic, [TopicRepository, TopicRelocation, MarkdownRenderer, DomainEvents, UnitOfWork, Clock]);
  useCase(DeleteTopic, [TopicRepository, ReplyRepository, NotificationRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(FollowTopic, [TopicRepository]);
  useCase(FavoriteTopic, [TopicRepository, DomainEvents, UnitOfWork]);
  useCase(TopicAction, [TopicRepository, ReplyRepository, NodeRepository, TopicRelocation, DomainEvents, UnitOfWork, Clock]);
  useCase(MoveTopic, [TopicRepository, NodeRepository, TopicRelocation, UnitOfWork, Clock]);
  useCase(MoveNodeTopics, [TopicRepository, NodeRepository, TopicRelocation, UnitOfWork, Clock]);
  useCase(Recount, [CounterMaintenance]);
  useCase(PurgeNotifications, [CounterMaintenance, Clock]);
  useCase(PurgeEvents, [CounterMaintenance, Clock]);
  useCase(PurgeDeliveries, [CounterMaintenance, Clock]);
  useCase(SeedDatabase, [DataSeeder, PasswordHasher, WordSegmenter]);

  useCase(ListReplies, [ReplyReadModel]);
  useCase(CreateReply, [ReplyTargets, ReplyRepository, MarkdownRenderer, DomainEvents, OneStatementUnitOfWork, Clock]);
  useCase(UpdateReply, [ReplyRepository, TopicRepository, MarkdownRenderer, DomainEvents, UnitOfWork, Clock]);
  useCase(SearchContent, [SearchReadModel, WordSegmenter, HtmlText]);
  useCase(ReindexSearch, [SearchIndex, WordSegmenter, HtmlText]);
  useCase(ManageWebhooks, [WebhookStore, WebhookTransport, SecretGenerator, Clock]);
  useCase(DeliverWebhook, [WebhookStore, WebhookSubjects, WebhookTransport, Clock]);
  useCase(DeleteReply, [ReplyRepository, TopicRepository, NotificationRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(LikeObject, [LikeRepository, TopicRepository, ReplyRepository, UnitOfWork]);

  useCase(ListNotifications, [NotificationReadModel]);
  useCase(CountUnreadNotifications, [NotificationReadModel]);
  useCase(LiveNotifications, [NotificationReadModel]);
  useCase(MarkNotificationsRead, [NotificationRepository]);
  useCase(DeleteNotification, [NotificationRepository]);
  useCase(DeleteAllNotifications, [NotificationRepository]);

  useCase(CreateUser, [UserRepository, PasswordHasher, DomainEvents, UnitOfWork, Clock]);
  useCase(ShowUser, [UserReadModel]);
  useCase(FollowUser, [UserRepository, DomainEvents, UnitOfWork]);
  useCase(ListUserTopics, [UserReadModel, TopicReadModel]);
  useCase(ListUserFavorites, [UserReadModel, TopicReadModel]);
  useCase(ListUserReplies, [UserReadModel, ReplyReadModel]);
  useCase(ListFollows, [UserReadModel]);
  useCase(ChangeRole, [UserRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(BlockNode, [UserRepository, NodeRepository]);
  useCase(BlockUser, [UserRepository]);
  useCase(ListActiveUsers, [UserReadModel, Clock]);
  useCase(ListBlockedUsers, [UserReadModel]);
  useCase(ManageDevices, [DeviceRegistry]);
  useCase(UploadPhoto, [UploadStorage, FileTypes, SecretGenerator, Clock]);

  useCase(CreateNode, [NodeRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(SetNodeHidden, [NodeRepository, DomainEvents, UnitOfWork, Clock]);
  useCase(ListAudit, [AuditLog]);

  const ids = {
    authenticate: Authenticate,
    issueToken: IssueToken,
    revokeToken: RevokeToken,
    lookupRefreshToken: LookupRefreshToken,
    purgeTokens: PurgeTokens,
    describeToken: DescribeToken,
    listTokens: ListTokens,
    revokeAllTokens: RevokeAllTokens,
    passwordLogin: PasswordLogin,
    checkAuthorizationRequest: CheckAuthorizationRequest,
    approveAuthorization: ApproveAuthorization,
    redeemAuthorizationCode: RedeemAuthorizationCode,
    signIn: SignIn,
    resolveWebSession: ResolveWebSession,
    signOut: SignOut,
    authenticateClient: AuthenticateClient,
    createApp: CreateApp,
    listApps: ListApps,
    listTopics: ListTopics,
    showTopic: ShowTopic,
    createTopic: CreateTopic,
    updateTopic: UpdateTopic,
    deleteTopic: DeleteTopic,
    followTopic: FollowTopic,
    favoriteTopic: FavoriteTopic,
    topicAction: TopicAction,
    moveTopic: MoveTopic,
    moveNodeTopics: MoveNodeTopics,
    recount: Recount,
    purgeNotifications: PurgeNotifications,
    purgeEvents: PurgeEvents,
    purgeDeliveries: PurgeDeliveries,
    seedDatabase: SeedDatabase,
    listReplies: ListReplies,
    createReply: CreateReply,
    updateReply: UpdateReply,
    deleteReply: DeleteReply,
    like: LikeObject,
    listNotifications: ListNotifications,
    countUnreadNotifications: CountUnreadNotifications,
    liveNotifications: LiveNotifications,
    markNotificationsRead: MarkNotificationsRead,
    deleteNotification: DeleteNotification,
    deleteAllNotifications: DeleteAllNotifications,
    createUser: CreateUser,
    showUser: ShowUser,
    followUser: FollowUser,
    listUserTopics: ListUserTopics,
    listUserFavorites: ListUserFavorites,
    listUserReplies: ListUserReplies,
    listFollows: ListFollows,
    changeRole: ChangeRole,
    blockNode: BlockNode,
    blockUser: BlockUser,
    listActiveUsers: ListActiveUsers,
    listBlockedUsers: ListBlockedUsers,
    devices: ManageDevices,
    uploadPhoto: UploadPhoto,
    createNode: CreateNode,
    setNodeHidden: SetNodeHidden,
    search: SearchContent,
    reindexSearch: ReindexSearch,
    webhooks: ManageWebhooks,
    listAudit: ListAudit,
    deliverWebhook: DeliverWebhook,
    topics: TopicReadModel,
    replies: ReplyReadModel,
    nodes: NodeReadModel,
    users: UserReadModel,
  } satisfies Record<keyof UseCases, ServiceIdentifier>;
  const names = Object.keys(ids) as (keyof UseCases)[];
  provide(
    bind,
    UseCases,
    (...services: unknown[]) => Object.fromEntries(names.map((name, i) => [name, services[i]])) as unknown as UseCases,
    names.map((name) => ids[name]),
  );
});

/** The one composition root, shared by the HTTP server, forumctl and the tests. */
export function buildContainer(persistence: { orm: MikroORM; sql: Sql; events: EventFeed }, config: Config): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(EventFeed).toConstantValue(persistence.events);
  container.bind(Em).toConstantValue(persistence.orm.em);
  container.bind(SqlRunner).toConstantValue(persistence.sql);
  container.bind(AppConfig).toConstantValue(config);
  container.load(systemModule, persistenceModule, webhooksModule, eventsModule, useCaseModule);
  return container;
}

export function useCasesOf(container: Container): UseCases {
  return container.get<UseCases>(UseCases);
}
