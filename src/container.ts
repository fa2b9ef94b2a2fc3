import 'reflect-metadata';
import { Container, ContainerModule, type ServiceIdentifier } from 'inversify';
import type { MikroORM } from '@mikro-orm/postgresql';
import { NodeReadModel, ReplyReadModel, TopicReadModel, UserReadModel } from './application/read-models.js';
import { LikeObject } from './application/likes/like.js';
import { CreateReply } from './application/replies/create-reply.js';
import { DeleteReply } from './application/replies/delete-reply.js';
import { ListReplies } from './application/replies/list-replies.js';
import { UpdateReply } from './application/replies/update-reply.js';
import { LiveNotifications } from './application/notifications/live-notifications.js';
import {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from './application/notifications/manage-notifications.js';
import { UseCases } from './application/use-cases.js';
import { CreateNode, SetNodeHidden } from './application/nodes/manage-nodes.js';
import {
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
import { ResolveWebSession, SignIn, SignOut } from './application/oauth/web-sessions.js';
import { AuthenticateClient, CreateApp, ListApps } from './application/oauth/clients.js';
import { PasswordLogin } from './application/oauth/password-login.js';
import { CreateTopic } from './application/topics/create-topic.js';
import { DeleteTopic } from './application/topics/delete-topic.js';
import { ListTopics } from './application/topics/list-topics.js';
import { MoveTopic } from './application/topics/move-topic.js';
import { MoveNodeTopics } from './application/topics/move-node-topics.js';
import { PurgeEvents, PurgeDeliveries, PurgeNotifications, Recount } from './application/maintenance/maintenance.js';
import { SeedDatabase } from './application/maintenance/seed.js';
import { ShowTopic } from './application/topics/show-topic.js';
import { TopicAction } from './application/topics/topic-action.js';
import { FavoriteTopic, FollowTopic } from './application/topics/topic-relations.js';
import { UpdateTopic } from './application/topics/update-topic.js';
import { CreateUser } from './application/users/create-user.js';
import { BlockNode, BlockUser, ChangeRole, FollowUser, ShowUser } from './application/users/manage-users.js';
import { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from './application/users/user-lists.js';
import { ListActiveUsers, ListBlockedUsers } from './application/users/community.js';
import { ManageDevices } from './application/devices/devices.js';
import { UploadPhoto } from './application/photos/upload-photo.js';
import type { Sql } from './adapters/persistence/sql.js';
import type { Config } from './config.js';
import { EventFeed } from './application/events.js';
import { DeliverWebhook, ManageWebhooks } from './application/webhooks/webhooks.js';
import { ListAudit } from './application/audit/audit-log.js';
import { SearchContent } from './application/search/search.js';
import { ReindexSearch } from './application/search/reindex.js';
import { AppConfig, Em, provide, SqlRunner } from './container/bind.js';
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

const useCaseModule = new ContainerModule(({ bind }) => {
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
    useCaseModule,
  );
  return container;
}

export function useCasesOf(container: Container): UseCases {
  return container.get<UseCases>(UseCases);
}
