import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import cluster from 'node:cluster';
import type { Logger } from 'pino';
import { type Config, loadConfig } from './config.js';
import { clusterMetrics, runPrimary } from './adapters/http/cluster.js';
import { ServiceMetrics } from './adapters/http/metrics.js';
import { FrontPageCache } from './adapters/http/front-page-cache.js';
import { type SharedCounters, WindowLimiter } from './adapters/http/window-limiter.js';
import { SqlSharedCounters } from './adapters/persistence/shared-counters.js';
import { buildContainer } from './container.js';
import { LiveNotifications } from './application/notifications/live-notifications.js';
import { DeliverWebhook } from './application/webhooks/webhooks.js';
import { createApp, HttpUseCases } from './adapters/http/app.js';
import { createLogger } from './adapters/http/logger.js';
import { Wire } from './adapters/presentation/wire.js';
import { listen } from './adapters/http/server.js';
import { Shutdown } from './adapters/http/shutdown.js';
import { NotificationStreams } from './adapters/http/notification-streams.js';
import { openDatabase } from './adapters/persistence/database.js';
import { migrate } from './adapters/persistence/orm.js';
import { DELIVERY_TASK } from './adapters/persistence/webhook-store.js';
import { isDatabaseUnavailable } from './adapters/persistence/unavailable.js';
import { FolderStorage } from './adapters/storage/folder-storage.js';
import { WebhookWorker } from './adapters/webhooks/delivery-worker.js';

/**
 * HTTP entry. With WEB_CONCURRENCY > 1, this process is the cluster's primary and starts the workers, which each
 * come back here and serve.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, { pretty: Boolean(process.stdout.isTTY) });
  if (config.webConcurrency > 1 && cluster.isPrimary) return runPrimary(config.webConcurrency, logger);
  await serve(config, logger);
}

/**
 * Open the database, apply pending migrations, serve; on SIGTERM/SIGINT (also while starting) finish the requests
 * in flight, close everything and exit 0.
 */
async function serve(config: Config, logger: Logger): Promise<void> {
  // A cluster worker's channel to the primary would keep it alive.
  const shutdown = new Shutdown(logger, () => cluster.isWorker && process.disconnect());
  await shutdown.start(async () => {
    const database = await openDatabase(config, {
      ...config.database,
      notice: (message, details) => logger.warn(details ?? {}, message),
    });
    if (!shutdown.keep(() => database.close())) return;
    const applied = await migrate(database.orm);
    if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');

    const container = buildContainer(database, config);
    const wire = new Wire(config.publicUrl);
    const notificationStreams = new NotificationStreams(container.get(LiveNotifications), database.events, wire);
    const metrics = new ServiceMetrics({ pools: database.poolUse, openStreams: () => notificationStreams.size });
    const frontPage = new FrontPageCache(database.events);
    shutdown.keep(() => frontPage.close());
    const limiter = new WindowLimiter(new SqlSharedCounters(database.sql) satisfies SharedCounters);
    // Four times a second: what a limit may be passed by across processes (docs/operations.md).
    const syncLimits = setInterval(() => void database.scope(() => limiter.sync()), 250).unref();
    shutdown.keep(() => clearInterval(syncLimits));
    const app = createApp({
      useCases: container.get<HttpUseCases>(HttpUseCases),
      wire,
      notificationStreams,
      scope: database.scope,
      isReady: database.isReady,
      isUnavailable: isDatabaseUnavailable,
      logger,
      tokenLifetimes: { accessSeconds: config.tokenLifetimeSeconds, refreshSeconds: config.refreshTokenLifetimeSeconds },
      trustProxy: config.trustProxy,
      corsOrigins: config.corsOrigins,
      publicUrl: config.publicUrl,
      version: packageVersion(),
      uploads: new FolderStorage(config.uploadsDir, config.publicUrl),
      rateLimits: { limiter, ...config.rateLimits },
      frontPage,
      metrics: {
        collector: metrics,
        token: config.metricsToken,
        ...(cluster.isWorker ? { text: clusterMetrics(metrics.registry) } : {}),
      },
    });
    if (config.webhooks.concurrency > 0) {
      const webhookWorker = await WebhookWorker.start(
        database.orm.config.get('clientUrl') as string,
        container.get(DeliverWebhook),
        {
          task: DELIVERY_TASK,
          concurrency: config.webhooks.concurrency,
          scope: database.scope,
          onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
          notice: (message, details) => logger.warn(details ?? {}, message),
        },
      );
      if (!shutdown.keep(() => webhookWorker.stop())) return;
    }
    const server = await listen(app, config.port, config.host);
    if (!shutdown.keep(() => server.stop())) return;
    // Streams never finish by themselves: end them first, so that the server can drain and stop.
    shutdown.keep(() => notificationStreams.close());
    logger.info(
      { url: server.url, database: config.databaseUrl ? 'external' : `embedded (${config.dataDir})` },
      'forum is listening',
    );
  });
}

/** The version in package.json (dist/src/main.js is two folders below it). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
