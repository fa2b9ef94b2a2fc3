/*
 * The mail jobs' place on the job queue (contract §17). Apart from the queue's adapter (mail-queue.ts), which
 * stages jobs through staged-rows.ts, since staged-rows.ts queues them with this.
 */

/** The graphile-worker task mail jobs are queued as (the queue the webhooks use, in the same database). */
export const MAIL_TASK = 'mail_delivery';

/**
 * Tries per mail. graphile-worker waits exp(n) seconds after the n-th failure (at most exp(10), about 6 hours):
 * 3 s, 7 s, 20 s, 55 s, 2.5 min, 7 min, 18 min, 50 min, 2.3 h, then 6 h twice: twelve tries span about 16 hours.
 * A link that expires meanwhile is not sent (DeliverMail).
 */
export const MAIL_ATTEMPTS = 12;

/**
 * The flags of a mail job: its task's name, by which the job runtime keeps MAIL_CONCURRENCY
 * (adapters/jobs/limits.ts). Every mail job is queued with them.
 */
export const MAIL_FLAGS = `array['${MAIL_TASK}']`;

/** Queues a job for each mail of `jobs` (a CTE with a json `payload`). */
export const queueMail = (jobs: string) =>
  `select graphile_worker.add_job('${MAIL_TASK}', ${jobs}.payload, max_attempts := ${MAIL_ATTEMPTS}, flags := ${MAIL_FLAGS})
   from ${jobs}`;

/** The graphile-worker task of the digest schedule (contract §17): one run queues the digests due (QueueDigests). */
export const DIGEST_TASK = 'mail_digests';

/**
 * The graphile-worker task that moves the notification mail whose delay is over onto the queue
 * (NotificationMailQueue.moveDue), every 10 seconds, in the job runtime of the processes that send mail.
 */
export const DUE_MAIL_TASK = 'mail_due';
