import type { MailJob, MailQueue } from '../../application/mail/mail-jobs.js';
import type { StagedRows } from './staged/staged-rows.js';

/**
 * Mail jobs go with the unit of work's staged rows (staged-rows.ts): queued in the statement that ends it, so in
 * its transaction; outside a unit of work, at once.
 */
export class SqlMailQueue implements MailQueue {
  constructor(private readonly staged: StagedRows) {}

  queue(job: MailJob): Promise<void> {
    return this.staged.mail([job]);
  }
}
