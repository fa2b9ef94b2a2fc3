import type { JobTask } from '../task.js';

export interface DigestsOptions {
  /** The graphile-worker task of the schedule (the persistence adapter's DIGEST_TASK). */
  identifier: string;
  /** When (graphile-worker's crontab syntax: DIGEST_SCHEDULE, the top of every hour). */
  schedule: string;
  /** Queues the digests due (QueueDigests): how many. */
  run: () => Promise<number>;
  onRun?: (queued: number) => void;
}

/**
 * The digest schedule (contract §17): graphile-worker's cron queues the task at each time the schedule names, once
 * for all the processes that run it, and whichever worker takes the job runs QueueDigests, which queues the
 * digests due.
 */
export function digestsTask(options: DigestsOptions): JobTask {
  return {
    identifier: options.identifier,
    schedule: { cron: options.schedule },
    async run() {
      // A failure (the database) is thrown back: the job is tried again, and a run queues only who is still due.
      const queued = await options.run();
      options.onRun?.(queued);
    },
  };
}
