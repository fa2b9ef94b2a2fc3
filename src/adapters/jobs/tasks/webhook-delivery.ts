import type { DeliverWebhook, TryOutcome } from '../../../application/webhooks/webhooks.js';
import type { JobTask } from '../task.js';

export interface WebhookDeliveryOptions {
  /**
   * The graphile-worker task that deliveries are queued as: the one the persistence adapter's outbox queues
   * (its DELIVERY_TASK), which the composition root hands over.
   */
  identifier: string;
  /** Tries running at once in this process (WEBHOOKS_CONCURRENCY; 0: none; each waits at most 10 s for its endpoint). */
  concurrency: number;
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

/** Tries one webhook delivery through DeliverWebhook; one not accepted is thrown back for graphile-worker to retry. */
export function webhookDeliveryTask(deliver: DeliverWebhook, options: WebhookDeliveryOptions): JobTask {
  return {
    identifier: options.identifier,
    concurrency: options.concurrency,
    async run(payload, job) {
      const deliveryId = (payload as { delivery: string }).delivery;
      const outcome = await deliver
        .attempt(deliveryId, { attempt: job.attempts, maxAttempts: job.maxAttempts })
        .catch((error: unknown) => {
          options.onOutcome?.('error');
          options.notice?.('a webhook delivery could not be tried; it is tried again later', { err: error, deliveryId });
          throw error;
        });
      options.onOutcome?.(outcome);
      if (outcome === 'retry') throw new NotDelivered(deliveryId);
    },
  };
}
