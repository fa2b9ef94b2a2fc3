import pg from 'pg';
import { Logger, parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type { DeliverMail, MailOutcome } from '../../application/mail/deliver-mail.js';
import { MailJob } from '../../application/mail/mail-jobs.js';

/** graphile-worker's own log lines stay out of ours (they would name payloads and errors in its own words). */
const QUIET_GRAPHILE_LOGGER = new Logger(() => () => undefined);

export interface MailWorkerOptions {
  /** The graphile-worker task mail is queued as (the persistence adapter's MAIL_TASK, handed over by the container). */
  task: string;
  /** Mails being sent at once in this process. */
  concurrency: number;
  /** How often it looks for retries that came due (new jobs wake it at once). */
  pollIntervalMs?: number;
  /** Runs each try in a persistence context of its own. */
  scope: <T>(work: () => Promise<T>) => Promise<T>;
  /** A try held longer than this belongs to a process that died mid-send: its job is released for another worker. */
  orphanAfterMs?: number;
  /** Told how each try ended. */
  onOutcome?: (outcome: MailOutcome | 'failed') => void;
  /** Told when a try fails (the mail server, the database): never with the mail's links or addresses. */
  notice?: (message: string, details?: Record<string, unknown>) => void;
  /**
   * Moves the notification mail whose delay is over onto the queue (NotificationMailQueue), every `everyMs`: how
   * far past its delay a notification mail may go out.
   */
  dueMail?: { everyMs: number; move: () => Promise<number> };
  /**
   * The digest schedule (contract §17): graphile-worker's cron queues `task` at each time `schedule` names, once
   * for all the processes that run it (their crontabs agree through its known_crontabs table), and whichever
   * worker takes the job runs `run` (QueueDigests), which queues the digests due.
   */
  digests?: { task: string; schedule: string; run: () => Promise<number>; onRun?: (queued: number) => void };
}

/**
 * Sends mail in this server process, on graphile-worker (the webhooks' queue): every process runs one, a job is
 * taken by one worker at a time, and a try that fails is thrown back for graphile-worker to retry with its growing
 * delay. Its own small pool: a slow mail server holds a worker, never a connection the API needs.
 */
export class MailWorker {
  private constructor(
    private readonly runner: Runner,
    private readonly pool: pg.Pool,
    private readonly timers: NodeJS.Timeout[],
  ) {}

  static async start(connectionString: string, deliver: DeliverMail, options: MailWorkerOptions): Promise<MailWorker> {
    // One connection listens for new jobs; the rest take and complete them.
    const pool = new pg.Pool({ connectionString, max: Math.min(options.concurrency + 2, 6) });
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
        .catch((error: unknown) => options.notice?.('mail left by a stopped process could not be released', { err: error }));
    await releaseOrphans();
    const digests = options.digests;
    const digestTasks: TaskList = digests
      ? {
          [digests.task]: async () => {
            // A failure (the database) is thrown back: the job is tried again, and a run queues only who is still due.
            const queued = await options.scope(() => digests.run());
            digests.onRun?.(queued);
          },
        }
      : {};
    const runner = await run({
      pgPool: pool,
      concurrency: options.concurrency,
      pollInterval: options.pollIntervalMs ?? 1_000,
      noHandleSignals: true,
      logger: QUIET_GRAPHILE_LOGGER,
      // No backfill: a run missed while every process was down is made up by the next one, which queues whoever
      // became due meanwhile. The job key keeps one run waiting at most.
      parsedCronItems: digests
        ? parseCronItems([
            {
              task: digests.task,
              match: digests.schedule,
              identifier: digests.task,
              options: { backfillPeriod: 0, jobKey: digests.task },
            },
          ])
        : [],
      taskList: {
        ...digestTasks,
        [options.task]: async (payload, helpers) => {
          const parsed = MailJob.safeParse(payload);
          if (!parsed.success) {
            // Not ours to send, and never will be: done with, not retried.
            options.notice?.('a mail job that is not a mail was dropped', { jobId: helpers.job.id });
            return;
          }
          const job = parsed.data;
          const outcome = await options
            .scope(() => deliver.execute(job))
            .catch((error: unknown) => {
              options.onOutcome?.('failed');
              // The reason only: an error object may carry what the mail server was told.
              options.notice?.('a mail could not be sent; it is tried again later', {
                reason: error instanceof Error ? error.message : String(error),
                code: (error as { code?: unknown } | null)?.code,
                jobId: helpers.job.id,
                kind: job.kind,
                attempt: helpers.job.attempts,
                maxAttempts: helpers.job.max_attempts,
              });
              throw error;
            });
          options.onOutcome?.(outcome);
        },
      },
    });
    const timers = [setInterval(releaseOrphans, 60_000).unref()];
    const { dueMail } = options;
    if (dueMail) {
      let moving = false;
      const moveDue = async () => {
        if (moving) return;
        moving = true;
        // A backlog moves in batches, one after the other, until it is gone.
        try {
          while ((await dueMail.move()) > 0);
        } catch (error) {
          options.notice?.('due notification mail could not be queued; it is tried again shortly', { err: error });
        } finally {
          moving = false;
        }
      };
      timers.push(setInterval(() => void moveDue(), dueMail.everyMs).unref());
    }
    return new MailWorker(runner, pool, timers);
  }

  /** Lets the mail in flight finish, then releases the connections. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.runner.stop();
    await this.pool.end();
  }
}
