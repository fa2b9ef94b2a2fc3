import { ContainerModule } from 'inversify';
import type Koa from 'koa';
import { EventFeed } from '../application/events.js';
import { LiveNotifications } from '../application/notifications/live-notifications.js';
import { Authenticate } from '../application/tokens/access-tokens.js';
import { createApp, HttpUseCases } from '../server/app.js';
import { clusterMetrics } from '../server/cluster.js';
import { FrontPageCache } from '../adapters/presentation/front-page-cache.js';
import { ServiceMetrics } from '../adapters/api/metrics.js';
import { ConflictRetries } from '../adapters/persistence/database/unit-of-work.js';
import { NotificationStreams } from '../adapters/api/notification-streams.js';
import { AdminRouteUseCases } from '../adapters/api/routes/admin.js';
import { ReviewRouteUseCases } from '../adapters/api/routes/review.js';
import { ReviewStore } from '../application/review/ports.js';
import { InboundMailRouteUseCases } from '../adapters/api/routes/inbound-email.js';
import { AuthorizeRouteUseCases } from '../adapters/web/routes/authorize.js';
import { DeviceRouteUseCases } from '../adapters/api/routes/devices.js';
import { NodeRouteUseCases } from '../adapters/api/routes/nodes.js';
import { NotificationRouteUseCases } from '../adapters/api/routes/notifications.js';
import { OAuthRouteUseCases } from '../adapters/api/routes/oauth.js';
import { UploadRouteUseCases } from '../adapters/api/routes/upload-api.js';
import { ReplyRouteUseCases } from '../adapters/api/routes/replies.js';
import { SearchRouteUseCases } from '../adapters/api/routes/search.js';
import { TopicRouteUseCases } from '../adapters/api/routes/topics.js';
import { UserRouteUseCases } from '../adapters/api/routes/users.js';
import { AccountRouteUseCases } from '../adapters/api/routes/accounts.js';
import { AccountPageUseCases } from '../adapters/web/routes/account.js';
import { PeoplePageUseCases } from '../adapters/web/routes/people.js';
import { ReadingPageUseCases } from '../adapters/web/routes/reading.js';
import { WritingPageUseCases } from '../adapters/web/routes/writing.js';
import { ModeratingPageUseCases } from '../adapters/web/routes/moderating.js';
import { DeleteTopic } from '../application/topics/delete-topic.js';
import { MoveTopic } from '../application/topics/move-topic.js';
import { TopicAction } from '../application/topics/topic-action.js';
import { DisciplineUser } from '../application/users/discipline.js';
import { ListReviewItems, ResolveReview } from '../application/review/review-queue.js';
import { CreateTopic } from '../application/topics/create-topic.js';
import { UpdateTopic } from '../application/topics/update-topic.js';
import { FlagPost } from '../application/review/flag-post.js';
import { DeleteReply } from '../application/replies/delete-reply.js';
import { UpdateReply } from '../application/replies/update-reply.js';
import { FeedUseCases } from '../adapters/web/routes/feeds.js';
import { SitemapUseCases } from '../adapters/web/routes/sitemap.js';
import { ResolveWebSession } from '../application/oauth/web-sessions.js';
import {
  CountUnreadNotifications,
  DeleteAllNotifications,
  DeleteNotification,
  ListNotifications,
  MarkNotificationsRead,
} from '../application/notifications/manage-notifications.js';
import { NotificationPageUseCases } from '../adapters/web/routes/notifications.js';
import { NodeReadModel, ReplyReadModel, SitemapReadModel, TopicReadModel } from '../application/read-models.js';
import { ListReplies } from '../application/replies/list-replies.js';
import { CreateReply } from '../application/replies/create-reply.js';
import { PreviewPost } from '../application/posts/preview.js';
import { LikeObject } from '../application/likes/like.js';
import { FavoriteTopic, FollowTopic } from '../application/topics/topic-relations.js';
import { SearchContent } from '../application/search/search.js';
import { ListTopics } from '../application/topics/list-topics.js';
import { ShowTopic } from '../application/topics/show-topic.js';
import { ListActiveUsers } from '../application/users/community.js';
import { BlockNode, BlockUser, FollowUser, ShowUser } from '../application/users/manage-users.js';
import { UploadPhoto } from '../application/uploads/upload-photo.js';
import { ListFollows, ListUserFavorites, ListUserReplies, ListUserTopics } from '../application/users/user-lists.js';
import { WindowLimiter, throttleWindows } from '../adapters/api/window-limiter.js';
import { ThrottleCounts } from '../application/throttles/throttle-counts.js';
import { isDatabaseUnavailable } from '../adapters/persistence/database/unavailable.js';
import { Wire } from '../adapters/presentation/wire.js';
import type { UploadedFiles } from '../adapters/api/routes/uploads.js';
import { UploadedFilesStore } from './uploads.js';
import type { Config } from '../config.js';
import { AppConfig, provide, record, ServerHost } from './bind.js';

/** The Koa app of a serving process, made of everything below (needs the ServerHost). */
export type HttpApp = Koa;
export const HttpApp = Symbol.for('HttpApp');

/**
 * The HTTP adapter and its infrastructure: what its routers call (each router's record is bound in its feature's
 * module), the rate limiter and the counts it shares across processes, the front-page cache, this process's live
 * notification streams, the metrics, and the app made of them.
 */
export const httpModule = new ContainerModule(({ bind }) => {
  record<HttpUseCases>(bind, HttpUseCases, {
    authenticate: Authenticate,
    oauth: OAuthRouteUseCases,
    authorize: AuthorizeRouteUseCases,
    topics: TopicRouteUseCases,
    replies: ReplyRouteUseCases,
    notifications: NotificationRouteUseCases,
    nodes: NodeRouteUseCases,
    users: UserRouteUseCases,
    accounts: AccountRouteUseCases,
    accountPages: AccountPageUseCases,
    readingPages: ReadingPageUseCases,
    peoplePages: PeoplePageUseCases,
    writingPages: WritingPageUseCases,
    moderatingPages: ModeratingPageUseCases,
    notificationPages: NotificationPageUseCases,
    feeds: FeedUseCases,
    sitemap: SitemapUseCases,
    devices: DeviceRouteUseCases,
    uploads: UploadRouteUseCases,
    search: SearchRouteUseCases,
    admin: AdminRouteUseCases,
    review: ReviewRouteUseCases,
    inboundMail: InboundMailRouteUseCases,
  });

  record<NotificationPageUseCases>(bind, NotificationPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listNotifications: ListNotifications,
    markNotificationsRead: MarkNotificationsRead,
    deleteNotification: DeleteNotification,
    deleteAllNotifications: DeleteAllNotifications,
  });
  record<ModeratingPageUseCases>(bind, ModeratingPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    topics: TopicReadModel,
    nodes: NodeReadModel,
    topicAction: TopicAction,
    moveTopic: MoveTopic,
    deleteTopic: DeleteTopic,
    showUser: ShowUser,
    disciplineUser: DisciplineUser,
    listReviewItems: ListReviewItems,
    resolveReview: ResolveReview,
  });
  record<WritingPageUseCases>(bind, WritingPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    nodes: NodeReadModel,
    topics: TopicReadModel,
    updateTopic: UpdateTopic,
    createTopic: CreateTopic,
    previewPost: PreviewPost,
    uploadPhoto: UploadPhoto,
  });
  record<PeoplePageUseCases>(bind, PeoplePageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listActiveUsers: ListActiveUsers,
    showUser: ShowUser,
    listUserTopics: ListUserTopics,
    listUserReplies: ListUserReplies,
    listUserFavorites: ListUserFavorites,
    listFollows: ListFollows,
    followUser: FollowUser,
    blockUser: BlockUser,
  });
  record<ReadingPageUseCases>(bind, ReadingPageUseCases, {
    resolveWebSession: ResolveWebSession,
    countUnread: CountUnreadNotifications,
    listTopics: ListTopics,
    showTopic: ShowTopic,
    listReplies: ListReplies,
    nodes: NodeReadModel,
    search: SearchContent,
    createReply: CreateReply,
    previewPost: PreviewPost,
    replies: ReplyReadModel,
    like: LikeObject,
    followTopic: FollowTopic,
    favoriteTopic: FavoriteTopic,
    flagPost: FlagPost,
    updateReply: UpdateReply,
    deleteTopic: DeleteTopic,
    deleteReply: DeleteReply,
    uploadPhoto: UploadPhoto,
    blockNode: BlockNode,
  });

  record<FeedUseCases>(bind, FeedUseCases, {
    listTopics: ListTopics,
    listUserTopics: ListUserTopics,
    nodes: NodeReadModel,
    topics: TopicReadModel,
  });

  record<SitemapUseCases>(bind, SitemapUseCases, {
    sitemap: SitemapReadModel,
    nodes: NodeReadModel,
  });

  provide(bind, WindowLimiter, (counts: ThrottleCounts) => new WindowLimiter(throttleWindows(counts)), [ThrottleCounts]);
  provide(bind, FrontPageCache, (events: EventFeed) => new FrontPageCache(events), [EventFeed]);
  provide(
    bind,
    NotificationStreams,
    (live: LiveNotifications, events: EventFeed, wire: Wire) => new NotificationStreams(live, events, wire),
    [LiveNotifications, EventFeed, Wire],
  );
  provide(
    bind,
    ServiceMetrics,
    (server: ServerHost, streams: NotificationStreams, review: ReviewStore, conflicts: ConflictRetries) =>
      new ServiceMetrics({
        pools: server.database.poolUse,
        openStreams: () => streams.size,
        pendingReviews: () => review.countPending(),
        conflicts: () => conflicts.all(),
      }),
    [ServerHost, NotificationStreams, ReviewStore, ConflictRetries],
  );

  provide(
    bind,
    HttpApp,
    (
      useCases: HttpUseCases,
      wire: Wire,
      notificationStreams: NotificationStreams,
      frontPage: FrontPageCache,
      limiter: WindowLimiter,
      metrics: ServiceMetrics,
      uploads: UploadedFiles,
      config: Config,
      server: ServerHost,
    ): HttpApp =>
      createApp({
        useCases,
        wire,
        notificationStreams,
        scope: server.database.scope,
        isReady: server.database.isReady,
        isUnavailable: isDatabaseUnavailable,
        logger: server.logger,
        tokenLifetimes: { accessSeconds: config.tokenLifetimeSeconds, refreshSeconds: config.refreshTokenLifetimeSeconds },
        trustProxy: config.trustProxy,
        corsOrigins: config.corsOrigins,
        publicUrl: config.publicUrl,
        version: server.version,
        uploads,
        rateLimits: { limiter, ...config.rateLimits },
        frontPage,
        metrics: {
          collector: metrics,
          token: config.metricsToken,
          ...(server.clusterWorker ? { text: clusterMetrics(metrics.registry) } : {}),
        },
      }),
    [
      HttpUseCases,
      Wire,
      NotificationStreams,
      FrontPageCache,
      WindowLimiter,
      ServiceMetrics,
      UploadedFilesStore,
      AppConfig,
      ServerHost,
    ],
  );
});
