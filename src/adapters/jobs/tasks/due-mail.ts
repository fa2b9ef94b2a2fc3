import type { JobTask } from '../task.js';

export interface DueMailOptions {
  /** The graphile-worker task of the mover (the persistence adapter's DUE_MAIL_TASK). */
  identifier: string;
  /** How often it runs: how far past its delay a notification mail may go out. */
  everyMs: number;
  /** Moves a batch of the notification mail whose delay is over onto the queue (NotificationMailQueue): how many. */
  move: () => Promise<number>;
  notice?: (message: string, details?: Record<string, unknown>) => void;
}

/**
 * Moves the notification mail whose delay is over onto the job queue, every `everyMs`, one run for all the
 * processes that send mail (a run that overlaps another is harmless: each row goes to one of them).
 */
export function dueMailTask(options: DueMailOptions): JobTask {
  return {
    identifier: options.identifier,
    schedule: { everyMs: options.everyMs },
    async run() {
      // A backlog moves in batches, one after the other, until it is gone.
      try {
        while ((await options.move()) > 0);
      } catch (error) {
        options.notice?.('due notification mail could not be queued; it is tried again shortly', { err: error });
      }
    },
  };
}
