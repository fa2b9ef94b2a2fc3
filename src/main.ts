import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import cluster from 'node:cluster';
import { setFlagsFromString } from 'node:v8';
import type { Logger } from 'pino';
import { type Config, loadConfig } from './config.js';
import { runPrimary } from './server/cluster.js';
import { FrontPageCache } from './adapters/presentation/front-page-cache.js';
import { WindowLimiter } from './adapters/api/window-limiter.js';
import { buildContainer } from './container.js';
import { HttpApp } from './container/http.js';
import { StartJobRuntime } from './container/jobs.js';
import { StartInboundSmtp } from './container/mail.js';
import { createLogger } from './server/logger.js';
import { listen } from './server/server.js';
import { Shutdown } from './server/shutdown.js';
import { NotificationStreams } from './adapters/api/notification-streams.js';
import { SealWebhookSecrets } from './application/webhooks/webhooks.js';
import { openDatabase } from './adapters/persistence/database/database.js';
import { migrate } from './adapters/persistence/database/orm.js';

/**
 * HTTP entry. With WEB_CONCURRENCY > 1, this process is the cluster's primary and starts the workers, which each
 * come back here and serve.
 */
async function main(): Promise<void> {
  // A request's objects live for a few milliseconds. V8's allocation-site pretenuring, misled by what survives while
  // the server starts, came to allocate some of them in the old generation: garbage promoted at 9 MB a second under
  // load, scavenges three times as long, the cached front page 7-12 % slower (docs/performance.md, round nineteen).
  // Objects that do live long (the container, caches) are made once and promoted once either way.
  setFlagsFromString('--no-allocation-site-pretenuring');
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

    const container = buildContainer(database, config, {
      logger,
      version: packageVersion(),
      clusterWorker: cluster.isWorker,
    });
    // Webhook secrets a release before sealing kept in clear (or one still running wrote since) are sealed now.
    const sealed = await database.scope(() => container.get(SealWebhookSecrets).execute());
    if (sealed > 0) logger.info({ webhooks: sealed }, 'sealed the webhook secrets kept in clear');
    const frontPage = container.get(FrontPageCache);
    shutdown.keep(() => frontPage.close());
    const limiter = container.get(WindowLimiter);
    // Four times a second: what a limit may be passed by across processes (docs/operations.md).
    const syncLimits = setInterval(() => void database.scope(() => limiter.sync()), 250).unref();
    shutdown.keep(() => clearInterval(syncLimits));
    const app = container.get<HttpApp>(HttpApp);
    // Background work (mail, webhook deliveries and their schedules): one runtime, with what this process runs.
    const jobs = await container.get<StartJobRuntime>(StartJobRuntime)();
    if (!shutdown.keep(() => jobs.stop())) return;
    // Reply by e-mail's SMTP listener. With WEB_CONCURRENCY > 1 every worker listens, as each does on PORT: node's
    // cluster module has the primary hold the one socket and hand each connection to a worker, so the port is
    // bound once and a worker that dies leaves the others taking mail.
    if (config.mail.inboundSmtpPort !== null) {
      if (config.mail.replyAddress === null) {
        logger.warn('INBOUND_SMTP_PORT is set but REPLY_BY_EMAIL is not: no SMTP listener (reply by e-mail is off)');
      } else {
        const listener = await container.get<StartInboundSmtp>(StartInboundSmtp)();
        if (!shutdown.keep(() => listener.stop())) return;
        logger.info({ port: listener.port, host: config.host }, 'reply by e-mail: SMTP listener started');
      }
    }
    if (config.mail.inboundToken !== null && config.mail.replyAddress === null) {
      logger.warn('INBOUND_EMAIL_TOKEN is set but REPLY_BY_EMAIL is not: POST /api/v3/inbound-email answers 404');
    }
    if (config.production && !config.secretKey) {
      logger.warn(
        { file: `${config.dataDir}/secret_key` },
        'SECRET_KEY is not set: mail links are signed with a key kept in the data folder; every host and forumctl must share it, so set SECRET_KEY when there is more than one',
      );
    }
    if (config.production && !config.mail.smtpUrl) {
      logger.warn(
        { folder: config.mail.folder },
        'SMTP_URL is not set: mail is written as .eml files to the data folder, not sent (forumctl mail list)',
      );
    }
    const server = await listen(app, config.port, config.host);
    if (!shutdown.keep(() => server.stop())) return;
    // Streams never finish by themselves: end them first, so that the server can drain and stop.
    const notificationStreams = container.get(NotificationStreams);
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
