import type pg from 'pg';

/** The graphile-worker task of the sweep, which every runtime registers: each minute, once for all processes. */
export const SWEEP_TASK = 'jobs_sweep';

/**
 * The one orphan sweeper, for every task. A job held longer than `orphanAfterMs` belongs to a process that died
 * in the middle of it (a webhook try takes at most its 10 s timeout, a mail a few seconds): its worker's jobs are
 * released for another process. graphile-worker alone would wait four hours. It also removes what a recurring
 * task's run cut short leaves (the run had queued the next one, and so given up its key and its tries): a job
 * with no key and no tries left.
 */
export class OrphanSweeper {
  constructor(
    private readonly pool: pg.Pool,
    private readonly orphanAfterMs: number,
    /** The tasks scheduled `everyMs`. */
    private readonly recurring: string[],
  ) {}

  async sweep(): Promise<void> {
    await this.pool.query(
      `select graphile_worker.force_unlock_workers(array(
         select distinct locked_by from graphile_worker.jobs
         where locked_at < now() - make_interval(secs => $1)))`,
      [this.orphanAfterMs / 1000],
    );
    if (this.recurring.length === 0) return;
    await this.pool.query(
      `select count(*) from graphile_worker.complete_jobs(array(
         select id from graphile_worker.jobs
         where task_identifier = any($1) and key is null and locked_at is null and attempts >= max_attempts))`,
      [this.recurring],
    );
  }
}
