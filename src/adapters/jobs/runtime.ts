import { EventEmitter } from 'node:events';
import pg from 'pg';
import { type CronItem, Logger, parseCronItems, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import { KindLimits } from './limits.js';
import { OrphanSweeper, SWEEP_TASK } from './sweeper.js';
import type { JobInfo, JobTask } from './task.js';

/** graphile-worker's own log lines stay out of ours (they would name payloads and errors in its own words). */
const QUIET_GRAPHILE_LOGGER = new Logger(() => () => undefined);

/** The cron line of what runs every minute: the sweep, and the check that each `everyMs` task still has its job. */
const EVERY_MINUTE = '* * * * *';

export interface JobRuntimeOptions {
  /** Runs each job in a persistence context of its own (one per job, as one per HTTP request). */
  scope: <T>(work: () => Promise<T>) => Promise<T>;
  /** How often an idle worker looks for jobs that came due (a job queued wakes one at once). */
  pollIntervalMs?: number;
  /** A job held longer than this belongs to a process that died in it: released for another (OrphanSweeper). */
  orphanAfterMs?: number;
  /** How long a runner that stopped on an error waits before it starts again. */
  restartAfterMs?: number;
  /** Told when something fails on our side. */
  notice?: (message: string, details?: Record<string, unknown>) => void;
}

/**
 * The one runtime of background work in a server process: one graphile-worker runner on one small pool, which runs
 * every task registered with it (mail, webhook deliveries, the digests' schedule, the due-mail mover): a job is
 * taken by one worker of one process at a time (SKIP LOCKED), and a try that fails is thrown back for
 * graphile-worker to retry with its growing delay. Each limited kind keeps its own limit in the shared runner
 * (KindLimits); scheduled tasks are queued by graphile-worker's cron or by their previous run (JobSchedule); one
 * sweeper releases what dead processes held. A job's own work runs on the service's pools, through `scope`: a slow
 * endpoint or mail server holds a worker, never a connection the API needs.
 *
 * graphile-worker stops a runner by itself when its cron meets a database error (at any minute: the sweep's) or a
 * worker cannot record how a job ended; the runtime then starts a new one on the same pool, `restartAfterMs` later,
 * until it is stopped.
 */
export class JobRuntime {
  private runner: Runner | null = null;
  /** A runner being started again. */
  private starting: Promise<void> | null = null;
  private restart: NodeJS.Timeout | null = null;
  private stopping = false;

  private constructor(
    private readonly pool: pg.Pool | null,
    private readonly launch: () => Promise<Runner>,
    private readonly options: JobRuntimeOptions,
  ) {}

  /** Starts the runtime with the tasks this process runs; with none (every kind set to 0), nothing is started. */
  static async start(connectionString: string, registered: readonly JobTask[], options: JobRuntimeOptions): Promise<JobRuntime> {
    const tasks = registered.filter((task) => task.concurrency !== 0);
    if (tasks.length === 0) return new JobRuntime(null, () => Promise.reject(new Error('no tasks')), options);
    const names = new Set([SWEEP_TASK, ...tasks.map((task) => task.identifier)]);
    if (names.size !== tasks.length + 1) throw new Error('two background tasks are registered under one name');

    const limited = new Map(
      tasks.flatMap((task) => (task.concurrency === undefined ? [] : [[task.identifier, task.concurrency] as const])),
    );
    // The limited kinds' places, and one for the scheduled tasks (the sweep, the mover, the digests).
    const concurrency = [...limited.values()].reduce((sum, limit) => sum + limit, 0) + 1;
    // One connection listens for new jobs; the others fetch and complete them.
    const pool = new pg.Pool({ connectionString, max: Math.min(concurrency + 2, 10), application_name: 'forum jobs' });
    pool.on('error', () => undefined);
    const recurring = tasks.filter((task) => task.schedule && 'everyMs' in task.schedule);
    const sweeper = new OrphanSweeper(
      pool,
      options.orphanAfterMs ?? 5 * 60_000,
      recurring.map((task) => task.identifier),
    );
    // A failed sweep is told, not retried: the next minute's sweeps again.
    const sweep = () =>
      sweeper
        .sweep()
        .catch((error: unknown) => options.notice?.('jobs left by a stopped process could not be released', { err: error }));

    const taskListWithin = (limits: KindLimits): TaskList => {
      const taskList: TaskList = { [SWEEP_TASK]: () => sweep() };
      for (const task of tasks) {
        const everyMs = task.schedule && 'everyMs' in task.schedule ? task.schedule.everyMs : null;
        // `limits.within` counts the job before its first `await` (KindLimits): nothing may come before it.
        taskList[task.identifier] = (payload, helpers) =>
          limits.within(task.identifier, async () => {
            const job: JobInfo = { id: helpers.job.id, attempts: helpers.job.attempts, maxAttempts: helpers.job.max_attempts };
            if (everyMs === null) return options.scope(() => task.run(payload, job));
            // The next run first, so that this one may die with its process. Queued under the task's key, it takes
            // the key and the tries of this job, which must then not fail: what fails is told, and done with.
            await pool.query(
              `select graphile_worker.add_job($1, '{}'::json, run_at := now() + make_interval(secs => $2), job_key := $1)`,
              [task.identifier, everyMs / 1000],
            );
            await options
              .scope(() => task.run(payload, job))
              .catch((error: unknown) =>
                options.notice?.('a recurring job failed; it runs again on schedule', {
                  task: task.identifier,
                  reason: error instanceof Error ? error.message : String(error),
                }),
              );
          });
      }
      return taskList;
    };

    // No backfill: a time missed while every process was down is made up by the next one. The job key keeps one
    // job waiting at most; an `everyMs` task's keeps the time its last run set, unless that job is lost or failing.
    const cronItems: CronItem[] = [
      { task: SWEEP_TASK, match: EVERY_MINUTE, identifier: SWEEP_TASK, options: { backfillPeriod: 0, jobKey: SWEEP_TASK } },
      ...tasks.flatMap((task): CronItem[] =>
        !task.schedule
          ? []
          : [
              {
                task: task.identifier,
                match: 'cron' in task.schedule ? task.schedule.cron : EVERY_MINUTE,
                identifier: task.identifier,
                options:
                  'cron' in task.schedule
                    ? { backfillPeriod: 0, jobKey: task.identifier }
                    : { backfillPeriod: 0, jobKey: task.identifier, jobKeyMode: 'preserve_run_at' },
              },
            ],
      ),
    ];

    const launch = async (): Promise<Runner> => {
      const limits = new KindLimits(limited);
      const events: WorkerEvents = new EventEmitter();
      for (const end of ['job:start', 'worker:getJob:empty', 'worker:getJob:error'] as const) {
        events.on(end, () => limits.fetched());
      }
      await sweep();
      // Each recurring task's job, now, unless one waits already (its time kept).
      for (const task of recurring) {
        await pool.query(`select graphile_worker.add_job($1, '{}'::json, job_key := $1, job_key_mode := 'preserve_run_at')`, [
          task.identifier,
        ]);
      }
      return run({
        pgPool: pool,
        concurrency,
        pollInterval: options.pollIntervalMs ?? 1_000,
        noHandleSignals: true,
        logger: QUIET_GRAPHILE_LOGGER,
        events,
        forbiddenFlags: limits.forbiddenFlags,
        parsedCronItems: parseCronItems(cronItems),
        taskList: taskListWithin(limits),
      });
    };
    const runtime = new JobRuntime(pool, launch, options);
    try {
      await runtime.begin();
    } catch (error) {
      await pool.end();
      throw error;
    }
    return runtime;
  }

  /** Starts a runner, and watches it: one that stops unasked is started again. */
  private async begin(): Promise<void> {
    const runner = await this.launch();
    this.runner = runner;
    const ended = (error?: unknown) => {
      if (this.stopping || this.runner !== runner) return;
      this.runner = null;
      this.options.notice?.('background jobs stopped on an error; they start again shortly', { err: error });
      this.again();
    };
    runner.promise.then(() => ended(), ended);
  }

  private again(): void {
    this.restart = setTimeout(() => {
      this.restart = null;
      if (this.stopping) return;
      this.starting = this.begin()
        .catch((error: unknown) => {
          this.options.notice?.('background jobs could not start again; they try again shortly', { err: error });
          this.again();
        })
        .finally(() => (this.starting = null));
    }, this.options.restartAfterMs ?? 5_000);
  }

  /** Lets the jobs in flight finish (a webhook try takes at most 10 s), then releases the connections. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restart) clearTimeout(this.restart);
    await this.starting;
    const runner = this.runner;
    this.runner = null;
    if (runner) {
      // Stopped already if it stopped by itself meanwhile; then its promise says when its jobs are done.
      await runner.stop().catch(() => undefined);
      await runner.promise.catch(() => undefined);
    }
    await this.pool?.end();
  }
}
