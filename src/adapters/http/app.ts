import { constants as zlib } from 'node:zlib';
import Koa from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import compress from 'koa-compress';
import type { Logger } from 'pino';
import type { UseCases } from '../../application/use-cases.js';
import type { Wire } from '../presentation/wire.js';
import { resolveActor } from './auth.js';
import { readBody } from './body.js';
import { errorMapper } from './error-mapper.js';
import { requestLog } from './request-log.js';
import { mergeParams } from './params.js';
import { notificationRoutes } from './routes/notifications.js';
import { oauthRoutes } from './routes/oauth.js';
import { replyRoutes } from './routes/replies.js';
import { topicRoutes } from './routes/topics.js';
import { nodeRoutes, userRoutes } from './routes/nodes-users.js';
import { systemRoutes } from './routes/system.js';
import { deviceRoutes } from './routes/devices.js';
import { photoRoutes } from './routes/photos.js';
import { type UploadedFiles, uploadRoutes } from './routes/uploads.js';

export interface HttpDependencies {
  useCases: UseCases;
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
}

/** Responses smaller than this are sent as they are: compressing them costs more than it saves. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Existing clients call every path with a `.json` suffix too. A bare `/.json` is not stripped: `/topics/.json`
 * is a topic with a blank id (404), not the topic list.
 */
async function stripJsonSuffix(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  if (ctx.path.endsWith('.json') && !ctx.path.endsWith('/.json')) ctx.path = ctx.path.slice(0, -'.json'.length);
  await next();
}

async function notFound(ctx: Koa.Context): Promise<void> {
  ctx.status = 404;
  ctx.body = { error: 'ResourceNotFound' };
}

/**
 * A known path with a method it does not serve: @koa/router's allowedMethods sets 405 (501 for a method no
 * route knows) and `Allow`; this gives those answers the contract's JSON body.
 */
async function methodErrors(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  if (ctx.status === 405) ctx.body = { error: 'MethodNotAllowed' };
  else if (ctx.status === 501) ctx.body = { error: 'NotImplemented' };
}

/** CORS for the configured origins only; tokens travel in the Authorization header, never in cookies. */
function corsFor(origins: string[] | '*'): Koa.Middleware {
  return cors({
    origin: (ctx) => (origins === '*' ? '*' : origins.includes(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
}

export function createApp(dependencies: HttpDependencies): Koa {
  const { useCases, wire, scope, isReady, isUnavailable, logger, tokenLifetimes, trustProxy } = dependencies;
  const app = new Koa({ proxy: trustProxy ?? false });

  app.use(requestLog(logger));
  const origins = dependencies.corsOrigins ?? [];
  if (origins === '*' || origins.length > 0) app.use(corsFor(origins));
  app.use(
    compress({
      threshold: COMPRESSION_THRESHOLD_BYTES,
      gzip: { level: 6 },
      br: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
      deflate: false,
    }),
  );
  app.use(errorMapper(logger, isUnavailable));
  app.use(stripJsonSuffix);
  app.use(methodErrors);
  const system = systemRoutes(isReady);
  app.use(system.routes());
  if (dependencies.uploads) app.use(uploadRoutes(dependencies.uploads).routes());
  app.use(readBody());
  app.use(mergeParams);
  // Writes need a persistence context of their own (identity map, unit of work). Reads are plain SQL through
  // read models and need none: skipping the fork saves measurable CPU on the hottest paths (docs/performance.md).
  app.use((ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? next() : scope(next)));
  app.use(resolveActor(useCases.authenticate));

  app.use(oauthRoutes(useCases, tokenLifetimes).routes());

  const api = new Router({ prefix: '/api/v3' });
  for (const routes of [
    topicRoutes(useCases, wire),
    replyRoutes(useCases, wire),
    notificationRoutes(useCases, wire),
    nodeRoutes(useCases, wire),
    userRoutes(useCases, wire),
    deviceRoutes(useCases),
    photoRoutes(useCases),
  ])
    api.use(routes.routes());
  app.use(api.routes());
  // One allowedMethods sees every router's matched routes (ctx.matched): 405 with Allow wherever a path is known.
  app.use(api.allowedMethods());
  app.use(notFound);
  return app;
}
