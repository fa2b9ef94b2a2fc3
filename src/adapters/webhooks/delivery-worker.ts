import pg from 'pg';
import { Logger, run, type Runner } from 'graphile-worker';
import type { DeliverWebhook, TryOutcome } from '../../application/webhooks/webhooks.js';

/** graphile-worker's own log lines stay out of ours; what matters of its work is in the webhook tables. */
const QUIET_GRAPHILE_LOGGER = new Logger(() => () => undefined);

export interface WebhookWorkerOptions {
  /**
   * The graphile-worker task that deliveries are queued as: the one the persistence adapter's outbox queues
   * (its DELIVERY_TASK), which the composition root hands over.
   */
  task: string;
  /** Tries running at once in this process (each waits at most 10 s for its endpoint). */
  concurrency: number;
  /** How often a worker looks for retries that came due (new deliveries wake it at once). */
  pollIntervalMs?: number;
  /** Runs each try in a persistence context of its own (one per try, as one per HTTP request). */
  scope: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * A try held longer than this belongs to a process that died mid-try (a try takes at most the 10 s timeout):
   * its job is released for another worker. graphile-worker alone would wait four hours.
   */
  orphanAfterMs?: number;
  /** Told how each try ended (for the metrics); `error` when it broke on our side. */
  onOutcome?: (outcome: TryOutcome | 'error') => void;
  /** Told when a try breaks on our side (the database, a bug) rather than at the endpoint. */
  notice?: (message: string, details?: Record<string, unknown>) => void;
}

class NotDelivered extends Error {
  constructor(deliveryId: string) {
    super(`delivery ${deliveryId} was not accepted; graphile-worker retries it later`);
  }
}

/**
 * Runs webhook deliveries in this server process, on graphile-worker: every process runs one, they share the
 * queue (a job is taken by one worker at a time, with SKIP LOCKED) and a try that fails is thrown back for
 * graphile-worker to retry with its growing delay. Its own small pool: a slow endpoint holds a worker, never a
 * connection the API needs.
 */
export class WebhookWorker {
  private constructor(
    private readonly runner: Runner,
    private readonly pool: pg.Pool,
    private readonly sweeper: NodeJS.Timeout,
  ) {}

  static async start(connectionString: string, deliver: DeliverWebhook, options: WebhookWorkerOptions): Promise<WebhookWorker> {
    // One connection listens for new jobs; the rest take and complete them.
    const pool = new pg.Pool({ connectionString, max: Math.min(options.concurrency + 2, 10) });
    pool.on('error', () => undefined);
    const orphanAfterSeconds = (options.orphanAfterMs ?? 5 * 60_000) / 1000;
    const releaseOrphans = () =>
      pool
        .query(
          `select graphile_worker.force_unlock_workers(array(
             select distinct locked_by from graphile_worker.jobs
             where task_identifier = $1 and locked_at < now() - make_interval(secs => $2)))`,
          [options.task, orphanAfterSeconds],
        )
        .catch((error: unknown) =>
          options.notice?.('webhook tries left by a stopped process could not be released', { err: error }),
        );
    await releaseOrphans();
    const runner = await run({
      pgPool: pool,
      concurrency: options.concurrency,
      pollInterval: options.pollIntervalMs ?? 1_000,
      noHandleSignals: true,
      logger: QUIET_GRAPHILE_LOGGER,
      taskList: {
        [options.task]: async (payload, helpers) => {
          const deliveryId = (payload as { delivery: string }).delivery;
          const outcome = await options
            .scope(() => deliver.attempt(deliveryId, { attempt: helpers.job.attempts, maxAttempts: helpers.job.max_attempts }))
            .catch((error: unknown) => {
              options.onOutcome?.('error');
              options.notice?.('a webhook delivery could not be tried; it is tried again later', { err: error, deliveryId });
              throw error;
            });
          options.onOutcome?.(outcome);
          if (outcome === 'retry') throw new NotDelivered(deliveryId);
        },
      },
    });
    return new WebhookWorker(runner, pool, setInterval(releaseOrphans, 60_000).unref());
  }

  /** Lets the tries in flight finish (at most the 10 s timeout), then releases the connections. */
  async stop(): Promise<void> {
    clearInterval(this.sweeper);
    await this.runner.stop();
    await this.pool.end();
  }
}
