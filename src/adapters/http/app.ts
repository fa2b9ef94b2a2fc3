import Koa from 'koa';
import Router from '@koa/router';
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
}

/** Existing clients call every path with a `.json` suffix too. */
async function stripJsonSuffix(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  if (ctx.path.endsWith('.json')) ctx.path = ctx.path.slice(0, -'.json'.length);
  await next();
}

async function notFound(ctx: Koa.Context): Promise<void> {
  ctx.status = 404;
  ctx.body = { error: 'ResourceNotFound' };
}

export function createApp(dependencies: HttpDependencies): Koa {
  const { useCases, wire, scope, isReady, isUnavailable, logger, tokenLifetimes, trustProxy } = dependencies;
  const app = new Koa({ proxy: trustProxy ?? false });

  app.use(requestLog(logger));
  app.use(errorMapper(logger, isUnavailable));
  app.use(stripJsonSuffix);
  app.use(systemRoutes(isReady).routes());
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
  ])
    api.use(routes.routes());
  app.use(api.routes());
  app.use(notFound);
  return app;
}
