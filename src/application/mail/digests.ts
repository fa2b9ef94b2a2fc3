import type { Clock } from '../ports.js';

/**
 * Digests (contract §17): now and then, a mail listing the most active new topics, to people who have not been
 * here for a while. Each person chooses the period (`email_digest`: daily, weekly, or none).
 */
export const DIGEST_PERIODS = { daily: 86_400_000, weekly: 7 * 86_400_000 } as const;
export type DigestPeriod = keyof typeof DIGEST_PERIODS;

/**
 * How early a digest may come: the schedule runs hourly, so a run a few seconds earlier in the hour than last
 * period's would otherwise find the last digest not quite a period old and put this one off by an hour, every
 * period a little later.
 */
export const DIGEST_SLACK_MS = 30 * 60_000;

/** Topics a digest lists at most. */
export const DIGEST_TOPICS = 10;

/** Users marked and queued per statement: a crash loses no more than a batch's work, and no batch holds locks long. */
export const DIGEST_BATCH = 500;

/** The schedule (graphile-worker's crontab syntax): at the top of every hour. */
export const DIGEST_SCHEDULE = '0 * * * *';

/** A topic as a digest lists it, read when the mail is written. */
export interface DigestTopic {
  id: number;
  title: string;
  nodeName: string;
  author: { login: string; name: string | null };
  repliesCount: number;
  likesCount: number;
  /** The start of the text a reader sees of its body, on one line (it may be cut anywhere). */
  text: string;
}

/** Where digests are queued. */
export interface DigestQueue {
  /**
   * Queues one digest job (kind `digest`) for at most `limit` users who are due at `now`, and marks them sent,
   * in one statement: a crash queues and marks all of them or none, so nobody gets two and nobody is skipped for
   * good. Due: an active account (its address confirmed) that is a real person's, whose `email_digest` is one of
   * `periods`, not seen for that period, and not sent a digest within it (less `slackMs`), while some topic was
   * started within it at all. Each job's `since` is the latest of the last digest, the last visit and the
   * period's start. Returns how many were queued; fewer than `limit` when nobody else is due.
   */
  queueDue(input: { now: Date; periods: Record<DigestPeriod, number>; slackMs: number; limit: number }): Promise<number>;
}
export const DigestQueue = Symbol.for('DigestQueue');

/**
 * One run of the digest schedule (contract §17), by the hourly cron of the mail workers or by `forumctl mail
 * digest`: every user due now gets one digest job, batch after batch; the mail is written when it is sent
 * (DeliverMail), and a user with nothing new gets none. Returns how many digests were queued.
 */
export class QueueDigests {
  constructor(
    private readonly queue: DigestQueue,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now();
    let total = 0;
    for (;;) {
      const queued = await this.queue.queueDue({
        now,
        periods: DIGEST_PERIODS,
        slackMs: DIGEST_SLACK_MS,
        limit: DIGEST_BATCH,
      });
      total += queued;
      if (queued < DIGEST_BATCH) return total;
    }
  }
}
