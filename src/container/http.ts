import { ContainerModule } from 'inversify';
import type Koa from 'koa';
import { EventFeed } from '../application/events.js';
import { LiveNotifications } from '../application/notifications/live-notifications.js';
import { ReviewStore } from '../application/review/ports.js';
import { ThrottleCounts } from '../application/throttles/throttle-counts.js';
import { Authenticate } from '../application/tokens/access-tokens.js';
import { createApp, HttpUseCases } from '../server/app.js';
import { clusterMetrics } from '../server/cluster.js';
import { ServiceMetrics } from '../adapters/api/metrics.js';
import { NotificationStreams } from '../adapters/api/notification-streams.js';
import { AccountRouteUseCases } from '../adapters/api/routes/accounts.js';
import { PersonalTokenRouteUseCases } from '../adapters/api/routes/personal-tokens.js';
import { AdminRouteUseCases } from '../adapters/api/routes/admin.js';
import { DeviceRouteUseCases } from '../adapters/api/routes/devices.js';
import { InboundMailRouteUseCases } from '../adapters/api/routes/inbound-email.js';
import { NodeRouteUseCases } from '../adapters/api/routes/nodes.js';
import { GroupRouteUseCases } from '../adapters/api/routes/groups.js';
import { MessageRouteUseCases } from '../adapters/api/routes/messages.js';
import { NotificationRouteUseCases } from '../adapters/api/routes/notifications.js';
import { OAuthRouteUseCases } from '../adapters/api/routes/oauth.js';
import { ReplyRouteUseCases } from '../adapters/api/routes/replies.js';
import { ReviewRouteUseCases } from '../adapters/api/routes/review.js';
import { SearchRouteUseCases } from '../adapters/api/routes/search.js';
import { TopicRouteUseCases } from '../adapters/api/routes/topics.js';
import { UploadRouteUseCases } from '../adapters/api/routes/upload-api.js';
import type { UploadedFiles } from '../adapters/api/routes/uploads.js';
import { UserRouteUseCases } from '../adapters/api/routes/users.js';
import { WindowLimiter, throttleWindows } from '../adapters/api/window-limiter.js';
import { AccountPageUseCases } from '../adapters/web/routes/account.js';
import { ProviderPageUseCases } from '../adapters/web/routes/providers.js';
import { AuthorizeRouteUseCases } from '../adapters/web/routes/authorize.js';
import { FeedUseCases } from '../adapters/web/routes/feeds.js';
import { MessagePageUseCases } from '../adapters/web/routes/messages.js';
import { ModeratingPageUseCases } from '../adapters/web/routes/moderating.js';
import { NotificationPageUseCases } from '../adapters/web/routes/notifications.js';
import { PeoplePageUseCases } from '../adapters/web/routes/people.js';
import { ReadingPageUseCases } from '../adapters/web/routes/reading.js';
import { SitemapUseCases } from '../adapters/web/routes/sitemap.js';
import { WritingPageUseCases } from '../adapters/web/routes/writing.js';
import { ConflictRetries } from '../adapters/persistence/database/unit-of-work.js';
import { isDatabaseUnavailable } from '../adapters/persistence/database/unavailable.js';
import { FrontPageCache } from '../adapters/presentation/front-page-cache.js';
import { Wire } from '../adapters/presentation/wire.js';
import type { Config } from '../config.js';
import { AppConfig, provide, record, ServerHost } from './bind.js';
import { TaskMetrics } from './jobs.js';
import { UploadedFilesStore } from './uploads.js';

/** The Koa app of a serving process, made of everything below (needs the ServerHost). */
export type HttpApp = Koa;
export const HttpApp = Symbol.for('HttpApp');

/**
 * The HTTP app and its infrastructure: its routers' records (bound by the API's and the pages' modules, api.ts
 * and web.ts) in one, the rate limiter and the counts it shares across processes, the front-page cache, this
 * process's live notification streams, the metrics (the job tasks count into them too), and the app made of them.
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
    groups: GroupRouteUseCases,
    messages: MessageRouteUseCases,
    users: UserRouteUseCases,
    accounts: AccountRouteUseCases,
    personalTokens: PersonalTokenRouteUseCases,
    accountPages: AccountPageUseCases,
    providerPages: ProviderPageUseCases,
    readingPages: ReadingPageUseCases,
    peoplePages: PeoplePageUseCases,
    writingPages: WritingPageUseCases,
    moderatingPages: ModeratingPageUseCases,
    notificationPages: NotificationPageUseCases,
    messagePages: MessagePageUseCases,
    feeds: FeedUseCases,
    sitemap: SitemapUseCases,
    devices: DeviceRouteUseCases,
    uploads: UploadRouteUseCases,
    search: SearchRouteUseCases,
    admin: AdminRouteUseCases,
    review: ReviewRouteUseCases,
    inboundMail: InboundMailRouteUseCases,
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
  bind(TaskMetrics).toService(ServiceMetrics);

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
