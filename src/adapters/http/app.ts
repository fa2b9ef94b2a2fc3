import Koa from 'koa';
import type { NotificationStreams } from './notification-streams.js';
import Router from '@koa/router';
import cors from '@koa/cors';
import type { Logger } from 'pino';
import type { Authenticate } from '../../application/tokens/access-tokens.js';
import type { Wire } from '../presentation/wire.js';
import { resolveActor } from './auth.js';
import { readBody } from './body.js';
import { compressResponses } from './compression.js';
import { errorMapper } from './error-mapper.js';
import { requestIdOf, requestLog } from './request-log.js';
import type { MetricsText, ServiceMetrics } from './metrics.js';
import { rateLimit, type RateLimits } from './rate-limit.js';
import type { FrontPageCache } from './front-page-cache.js';
import { mergeParams } from './params.js';
import { notificationRoutes, type NotificationRouteUseCases } from './routes/notifications.js';
import { oauthRoutes, type OAuthRouteUseCases } from './routes/oauth.js';
import { authorizeRoutes, type AuthorizeRouteUseCases } from './routes/authorize.js';
import { searchRoutes, type SearchRouteUseCases } from './routes/search.js';
import { adminRoutes, type AdminRouteUseCases } from './routes/admin.js';
import { reviewRoutes, type ReviewRouteUseCases } from './routes/review.js';
import { replyRoutes, type ReplyRouteUseCases } from './routes/replies.js';
import { topicRoutes, type TopicRouteUseCases } from './routes/topics.js';
import { nodeRoutes, type NodeRouteUseCases } from './routes/nodes.js';
import { userRoutes, type UserRouteUseCases } from './routes/users.js';
import { accountRoutes, type AccountRouteUseCases } from './routes/accounts.js';
import { accountPageRoutes, type AccountPageUseCases } from './routes/account-pages.js';
import { accountSettingsRoutes } from './routes/account-settings.js';
import { unsubscribeRoutes } from './routes/unsubscribe-page.js';
import { systemRoutes } from './routes/system.js';
import { deviceRoutes, type DeviceRouteUseCases } from './routes/devices.js';
import { uploadApiRoutes, type UploadRouteUseCases } from './routes/upload-api.js';
import { type UploadedFiles, uploadRoutes } from './routes/uploads.js';
import { documentationRoutes } from './routes/documentation.js';
import { inboundMailRoutes, type InboundMailRouteUseCases } from './routes/inbound-email.js';
import { ApiDescription } from './openapi/describe.js';

/**
 * What the HTTP adapter calls, by the router (or middleware) that calls it: each router is handed its own record
 * and nothing else. Resolved by the composition root.
 */
export interface HttpUseCases {
  /** Who calls (the middleware in front of every route under the API). */
  authenticate: Authenticate;
  oauth: OAuthRouteUseCases;
  authorize: AuthorizeRouteUseCases;
  topics: TopicRouteUseCases;
  replies: ReplyRouteUseCases;
  notifications: NotificationRouteUseCases;
  nodes: NodeRouteUseCases;
  users: UserRouteUseCases;
  accounts: AccountRouteUseCases;
  /** The pages of joining (/account): a person in a browser. */
  accountPages: AccountPageUseCases;
  devices: DeviceRouteUseCases;
  uploads: UploadRouteUseCases;
  search: SearchRouteUseCases;
  admin: AdminRouteUseCases;
  /** Flags, holds and the review queue (contract §18). */
  review: ReviewRouteUseCases;
  /** Reply by e-mail: a mail provider's inbound webhook. */
  inboundMail: InboundMailRouteUseCases;
}
export const HttpUseCases = Symbol.for('HttpUseCases');

export interface HttpDependencies {
  useCases: HttpUseCases;
  wire: Wire;
  /** Runs the rest of a request inside its own persistence context. */
  scope<T>(work: () => Promise<T>): Promise<T>;
  isReady(): Promise<boolean>;
  /** Whether an error means the database cannot be reached (answered 503, not 500). */
  isUnavailable(error: unknown): boolean;
  logger: Logger;
  tokenLifetimes: { accessSeconds: number; refreshSeconds: number };
  /** Trust X-Forwarded-For for the client address (behind a reverse proxy). */
  trustProxy?: boolean;
  /** Origins allowed to call from a browser (CORS): a list, `*`, or none (no CORS headers). */
  corsOrigins?: string[] | '*';
  /** Uploaded files this service serves under /uploads (the folder storage); absent when they live elsewhere. */
  uploads?: UploadedFiles;
  /** Where clients reach the service (the document's server); and the service's version. */
  publicUrl?: string;
  version?: string;
  /** The live notification streams of this process (they must end before it stops). */
  notificationStreams: NotificationStreams;
  /** The anonymous first pages of the topic lists, cached (issue 18); none: every list is read. */
  frontPage?: FrontPageCache;
  /** Contract §15's API rate limits: none, no limits. */
  rateLimits?: RateLimits;
  /** Contract §15's `GET /metrics`: none, no metrics. */
  metrics?: { collector: ServiceMetrics; token?: string | null; text?: MetricsText };
}

/**
 * Existing clients call every path with a `.json` suffix too. A bare `/.json` is not stripped: `/topics/.json`
 * is a topic with a blank id (404), not the topic list. Nor is the document's own name, openapi.json.
 */
function stripJsonSuffix(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  if (ctx.path.endsWith('.json') && !ctx.path.endsWith('/.json') && ctx.path !== OPENAPI_PATH) {
    ctx.path = ctx.path.slice(0, -'.json'.length);
  }
  return next();
}

const OPENAPI_PATH = '/api/v3/openapi.json';

/**
 * What no route answered. A path that some route knows, asked with a method none serves, is 405 with `Allow`
 * (an OPTIONS request just gets `Allow`); anything else is 404. Worked out here, on the way out of a request
 * nothing handled, so that answered requests pay nothing for it. The routers record every layer whose path
 * matched in `ctx.matched`, whatever its method.
 */
async function unrouted(ctx: Koa.Context): Promise<void> {
  const layers = (ctx as Koa.Context & { matched?: { methods: string[]; opts: { end?: boolean } }[] }).matched ?? [];
  const allowed = [...new Set(layers.filter((layer) => layer.opts.end !== false).flatMap((layer) => layer.methods))];
  if (allowed.length === 0) {
    ctx.status = 404;
    ctx.body = { error: 'ResourceNotFound' };
    return;
  }
  ctx.set('Allow', allowed.join(', '));
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  ctx.status = 405;
  ctx.body = { error: 'MethodNotAllowed' };
}

/**
 * Object bodies become their JSON text here, once, with their length: compression needs the size (Koa's
 * `length` getter would stringify an object body, and its respond step would do it again).
 */
async function serializeJson(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  const body: unknown = ctx.body;
  if (
    body !== null &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    ctx.body = JSON.stringify(body); // the type stays application/json, set with the object
  }
}

/** CORS for the configured origins only; tokens travel in the Authorization header, never in cookies. */
function corsFor(origins: string[] | '*'): Koa.Middleware {
  return cors({
    origin: (ctx) => (origins === '*' ? '*' : origins.includes(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    maxAge: 600,
  });
}

export function createApp(dependencies: HttpDependencies): Koa {
  const { useCases, wire, scope, isReady, isUnavailable, logger, tokenLifetimes, trustProxy } = dependencies;
  const app = new Koa({ proxy: trustProxy ?? false });
  // Errors after the response has started (a streamed body the client stopped reading) reach Koa's own handler,
  // which would print them on stderr: a client going away is normal, anything else goes to the log.
  app.silent = true;
  app.on('error', (error: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
    logger.error({ reqId: ctx && requestIdOf(ctx), err: error }, 'error while sending a response');
  });

  app.use(requestLog(logger));
  if (dependencies.metrics) app.use(dependencies.metrics.collector.middleware());
  const origins = dependencies.corsOrigins ?? [];
  if (origins === '*' || origins.length > 0) app.use(corsFor(origins));
  app.use(compressResponses());
  app.use(serializeJson);
  app.use(errorMapper(logger, isUnavailable));
  if (dependencies.metrics) {
    const { collector, token, text } = dependencies.metrics;
    app.use(collector.route({ token: token ?? null, ...(text ? { text } : {}) }));
  }
  app.use(stripJsonSuffix);
  // Every route is declared with its operation: the OpenAPI document is made as the routers are.
  const docs = new ApiDescription();
  const info = { publicUrl: dependencies.publicUrl ?? 'http://127.0.0.1:3000', version: dependencies.version ?? '0.0.0' };
  // Routes that need no body, no database context and no caller. Nested routers share one matching pass.
  const service = new Router();
  service.use(systemRoutes(isReady, docs).routes());
  service.use(documentationRoutes(docs, info).routes());
  if (dependencies.uploads) service.use(uploadRoutes(dependencies.uploads, docs).routes());
  app.use(service.routes());
  // The raw mail of a provider's inbound webhook: its own body reading, bearer and persistence context, and no
  // API rate limit (see the route).
  const inbound = new Router();
  inbound.use('/api/v3', inboundMailRoutes(useCases.inboundMail, docs, scope).routes());
  app.use(inbound.routes());
  app.use(readBody());
  app.use(mergeParams);
  // Writes need a persistence context of their own (identity map, unit of work). Reads are plain SQL through
  // read models and need none: skipping the fork saves measurable CPU on the hottest paths (docs/performance.md).
  // The /account pages read a mailed link's account through its repository, GET included: they have one.
  app.use((ctx, next) =>
    (ctx.method === 'GET' || ctx.method === 'HEAD') && !ctx.path.startsWith('/account/') ? next() : scope(next),
  );
  const prefix = '/api/v3';
  if (dependencies.rateLimits) app.use(rateLimit(dependencies.rateLimits, prefix));
  app.use(resolveActor(useCases.authenticate, prefix));

  const api = new Router();
  api.use(oauthRoutes(useCases.oauth, tokenLifetimes, docs).routes());
  const secureCookies = info.publicUrl.startsWith('https:');
  api.use(authorizeRoutes(useCases.authorize, docs, { secureCookies }).routes());
  api.use(accountPageRoutes(useCases.accountPages, docs, { secureCookies }).routes());
  api.use(accountSettingsRoutes(useCases.accountPages, docs, { secureCookies }).routes());
  api.use(unsubscribeRoutes(useCases.accountPages.unsubscribe, docs, { secureCookies }).routes());
  for (const routes of [
    topicRoutes(useCases.topics, wire, docs, prefix, dependencies.frontPage),
    replyRoutes(useCases.replies, wire, docs, prefix),
    notificationRoutes(useCases.notifications, wire, docs, prefix, dependencies.notificationStreams),
    nodeRoutes(useCases.nodes, wire, docs, prefix),
    accountRoutes(useCases.accounts, wire, docs, prefix),
    userRoutes(useCases.users, wire, docs, prefix),
    deviceRoutes(useCases.devices, docs, prefix),
    uploadApiRoutes(useCases.uploads, wire, docs, prefix),
    searchRoutes(useCases.search, wire, docs, prefix),
    adminRoutes(useCases.admin, wire, docs, prefix),
    reviewRoutes(useCases.review, wire, docs, prefix),
  ])
    api.use(prefix, routes.routes());
  app.use(api.routes());
  app.use(unrouted);
  return app;
}
