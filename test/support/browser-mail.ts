import { DeliverMail } from '../../src/application/mail/deliver-mail.js';
import type { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import { mailDeliveryTask } from '../../src/adapters/jobs/tasks/mail-delivery.js';
import { MAIL_TASK } from '../../src/adapters/persistence/mail/mail-task.js';
import { forumctl } from './cli.js';
import { PUBLIC_URL, testEnv } from './env.js';
import { startJobs } from './jobs.js';
import { until } from './wait.js';

/**
 * Mail as a person in a browser meets it: a mail worker sends what the pages queue (no SMTP_URL: an .eml file in the
 * run's mail folder), and the link a mail carries is read back with `forumctl mail`, as a person opens it.
 */

/** The mail worker of a browser suite: it delivers the mail the pages queue. Stop it in the suite's `after`. */
export async function startMailWorker(): Promise<JobRuntime> {
  const env = testEnv();
  // Jobs other tests left are not this suite's mail.
  await env.sql(
    `delete from graphile_worker._private_jobs
     where task_id in (select id from graphile_worker._private_tasks where identifier = $1)`,
    [MAIL_TASK],
  );
  return startJobs([mailDeliveryTask(env.container.get(DeliverMail), { identifier: MAIL_TASK, concurrency: 1 })]);
}

/**
 * The link of the newest mail to `address` that leads to `path` (with its `?token=`), as a person finds it, waiting
 * for the mail worker to send it. The mail's links name PUBLIC_URL; the link returned leads to `base` (the test's
 * server) instead.
 */
export async function mailedLink(address: string, path: string, base: string): Promise<string> {
  let link: string | undefined;
  const escaped = PUBLIC_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await until(async () => {
    const list = (await forumctl(['mail', 'list', '--json'])).json<{ mails: { id: string; to: string }[] }>().mails;
    for (const mail of list.filter((item) => item.to === address)) {
      const shown = (await forumctl(['mail', 'show', mail.id, '--json'])).json<{ text: string }>();
      link = new RegExp(`${escaped}${path}\\?token=[A-Za-z0-9_-]+`).exec(shown.text)?.[0];
      if (link) return true;
    }
    return false;
  }, 15_000);
  return link!.replace(PUBLIC_URL, base);
}
