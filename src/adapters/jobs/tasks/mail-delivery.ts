import type { DeliverMail, MailOutcome } from '../../../application/mail/deliver-mail.js';
import { MailJob } from '../../../application/mail/mail-jobs.js';
import type { JobTask } from '../task.js';

export interface MailDeliveryOptions {
  /** The graphile-worker task mail is queued as (the persistence adapter's MAIL_TASK, handed over by the container). */
  identifier: string;
  /** Mails being sent at once in this process (MAIL_CONCURRENCY; 0: none). */
  concurrency: number;
  /** Told how each try ended. */
  onOutcome?: (outcome: MailOutcome | 'failed') => void;
  /** Told when a try fails (the mail server, the database): never with the mail's links or addresses. */
  notice?: (message: string, details?: Record<string, unknown>) => void;
}

/** Sends one mail job through DeliverMail; a try that fails is thrown back for graphile-worker to retry later. */
export function mailDeliveryTask(deliver: DeliverMail, options: MailDeliveryOptions): JobTask {
  return {
    identifier: options.identifier,
    concurrency: options.concurrency,
    async run(payload, job) {
      const parsed = MailJob.safeParse(payload);
      if (!parsed.success) {
        // Not ours to send, and never will be: done with, not retried.
        options.notice?.('a mail job that is not a mail was dropped', { jobId: job.id });
        return;
      }
      const mail = parsed.data;
      const outcome = await deliver.execute(mail).catch((error: unknown) => {
        options.onOutcome?.('failed');
        // The reason only: an error object may carry what the mail server was told.
        options.notice?.('a mail could not be sent; it is tried again later', {
          reason: error instanceof Error ? error.message : String(error),
          code: (error as { code?: unknown } | null)?.code,
          jobId: job.id,
          kind: mail.kind,
          attempt: job.attempts,
          maxAttempts: job.maxAttempts,
        });
        throw error;
      });
      options.onOutcome?.(outcome);
    },
  };
}
