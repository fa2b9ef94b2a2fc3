import Koa from 'koa';
import type { Logger } from 'pino';
import {
  API_PREFIX,
  type ApiUseCases,
  corsFor,
  inboundRoutes,
  serializeJson,
  resourceRoutes,
  serviceRoutes,
  stripJsonSuffix,
  tokenRoutes,
  unrouted,
} from '../adapters/api/app.js';
import { nameCaller, resolveActor } from '../adapters/api/auth.js';
import { routersFor } from './routing.js';
import { readBody } from '../adapters/api/body.js';
import { compressResponses, keepCompressed } from '../adapters/api/compression.js';
import { errorMapper } from '../adapters/api/error-mapper.js';
import type { FrontPageCache } from '../adapters/presentation/front-page-cache.js';
import type { MetricsText, ServiceMetrics } from '../adapters/api/metrics.js';
import type { NotificationStreams } from '../adapters/api/notification-streams.js';
import { ApiDescription } from '../adapters/api/openapi/describe.js';
import { mergeParams } from '../adapters/api/params.js';
import { rateLimit, type RateLimits } from '../adapters/api/rate-limit.js';
import { requestIdOf, requestLog } from '../adapters/api/request-log.js';
import type { UploadedFiles } from '../adapters/api/routes/uploads.js';
import type { Wire } from '../adapters/presentation/wire.js';
import { pageNotFound, type WebUseCases, webRoutes } from '../adapters/web/app.js';

/**
 * The service's one Koa app, made of its two delivery adapters: the JSON API (src/adapters/api) and the pages a
 * person sees (src/adapters/web), behind what every request passes (the request log, metrics, CORS, compression,
 * the one error mapper, body parsing). One document describes both.
 */

/** What the app calls: the API's routers' use cases and the pages'. Resolved by the composition root. */
export type HttpUseCases = ApiUseCases & WebUseCases;
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

export function createApp(dependencies: HttpDependencies): Koa {
  const { useCases, scope, isReady, isUnavailable, logger, trustProxy } = dependencies;
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
  const service = serviceRoutes(docs, { isReady, info, ...(dependencies.uploads ? { uploads: dependencies.uploads } : {}) });
  app.use(routersFor([service, inboundRoutes(useCases.inboundMail, docs, scope)]));
  app.use(readBody((method, path) => docs.readsOwnMultipart(method, path)));
  app.use(mergeParams);
  // Writes need a persistence context of their own (identity map, unit of work). Reads are plain SQL through
  // read models and need none: skipping the fork saves measurable CPU on the hottest paths (docs/performance.md).
  // (The pages give their reads one: src/adapters/web/app.ts.)
  app.use((ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? next() : scope(next)));
  app.use(nameCaller(useCases.authenticate));
  if (dependencies.rateLimits) app.use(rateLimit(dependencies.rateLimits, API_PREFIX));
  app.use(resolveActor(useCases.authenticate, API_PREFIX));

  // Made in the order the document lists them: the token endpoints, the pages, the API's resources.
  const tokens = tokenRoutes(useCases, docs, dependencies);
  const web = {
    useCases,
    docs,
    scope,
    wire: dependencies.wire,
    secureCookies: info.publicUrl.startsWith('https:'),
    ...(dependencies.frontPage ? { pageCache: { cache: dependencies.frontPage, keep: keepCompressed } } : {}),
  };
  const pages = webRoutes(web);
  const resources = resourceRoutes(useCases, docs, dependencies);
  app.use(routersFor([...resources, tokens, ...pages]));
  // What nothing answered: 405 where a route knows the path; else the API's JSON 404 on its own paths, and the
  // forum's not-found page on any other (a browser's).
  app.use(unrouted(pageNotFound(web)));
  return app;
}
