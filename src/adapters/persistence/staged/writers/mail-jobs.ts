import { queueMail } from '../../mail-task.js';
import type { StagedWriter } from '../staged.js';

/** Mail jobs (contract §17), on the job queue, sent once the unit of work commits. */
export const mailJobs: StagedWriter = {
  name: 'mail jobs',
  write({ mail }, s) {
    if (mail.length === 0) return;
    s.cte('mail_jobs', `select * from unnest(${s.column(mail, (job) => JSON.stringify(job), 'json[]')}) as j(payload)`);
    s.cte('mail_queued', queueMail('mail_jobs'));
    s.mustRead('mail_queued');
  },
};
