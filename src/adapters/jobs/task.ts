/**
 * What a kind of background work registers with the job runtime (runtime.ts): its graphile-worker task, how many
 * of its jobs a process runs at once, when its job is queued if nobody else queues it, and its handler.
 */

/** What a handler is told of the job it runs. */
export interface JobInfo {
  id: string;
  /** This try's number, from 1. */
  attempts: number;
  maxAttempts: number;
}

/**
 * When the runtime queues a task's job itself, one job for all the processes that run the runtime:
 * - `cron`: at each time a crontab line names (graphile-worker's cron; the processes' crontabs agree through
 *   its known_crontabs table, so one of them queues it). A time missed while every process was down is not made up.
 * - `everyMs`: again and again, each run queueing the next `everyMs` after it starts (under the task's name as
 *   its job key: one waits at a time). Queued at start, and every minute by the cron, which sets it going again
 *   should it have been lost (a process that died mid-run, a database that was away).
 */
export type JobSchedule = { cron: string } | { everyMs: number };

export interface JobTask {
  /** graphile-worker's task identifier: what its jobs are queued as. */
  identifier: string;
  /**
   * How many of its jobs run at once in this process (WEBHOOKS_CONCURRENCY, MAIL_CONCURRENCY); 0: none, its jobs
   * are left to other processes. Such a task's jobs are queued with its identifier as a graphile-worker flag
   * (`flags := array['<identifier>']`), which the runtime forbids while the task is at its limit here. Unset: a
   * scheduled task, whose one job at a time needs no limit of its own.
   */
  concurrency?: number;
  schedule?: JobSchedule;
  /** Runs one job; a throw is a failed try, which graphile-worker repeats later (but see JobSchedule's `everyMs`). */
  run(payload: unknown, job: JobInfo): Promise<void>;
}
