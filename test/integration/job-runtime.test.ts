import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { DomainEvents } from '../../src/application/events.js';
import { UnitOfWork } from '../../src/application/ports.js';
import { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import type { JobTask } from '../../src/adapters/jobs/task.js';
import { DUE_MAIL_TASK, MAIL_TASK } from '../../src/adapters/persistence/mail/mail-task.js';
import { DELIVERY_TASK } from '../../src/adapters/persistence/webhooks/webhook-store.js';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { startJobs } from '../support/jobs.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** A limited kind whose jobs take `ms` each, counting how many ran at once. */
function kind(identifier: string, concurrency: number, ms = 150) {
  const seen = { atOnce: 0, most: 0, done: 0 };
  const task: JobTask = {
    identifier,
    concurrency,
    async run() {
      seen.most = Math.max(seen.most, ++seen.atOnce);
      await sleep(ms);
      seen.atOnce--;
      seen.done++;
    },
  };
  return { task, seen };
}

/** Queues `count` jobs of `task`, flagged with its name as the service queues them, or without flags as before them. */
async function queue(task: string, count: number, flagged = true): Promise<void> {
  await testEnv().sql(
    `select graphile_worker.add_job($1, '{}'::json, flags := case when $3 then array[$1] end) from generate_series(1, $2)`,
    [task, count, flagged],
  );
}

interface JobRow {
  task_identifier: string;
  key: string | null;
  attempts: number;
  locked_at: Date | null;
  flags: Record<string, boolean> | null;
}

const jobs = (task: string) =>
  testEnv().sql<JobRow>(
    'select task_identifier, key, attempts, locked_at, flags from graphile_worker.jobs where task_identifier = $1 order by id',
    [task],
  );

describe('the job runtime', () => {
  let runtime: JobRuntime | null = null;

  afterEach(async () => {
    await runtime?.stop();
    runtime = null;
  });

  it('runs each kind within its own limit, side by side, on one runner', async function () {
    this.timeout(20_000);
    const a = kind('test_kind_a', 1);
    const b = kind('test_kind_b', 3);
    await queue('test_kind_a', 4);
    await queue('test_kind_b', 9);
    runtime = await startJobs([a.task, b.task]);
    await until(() => a.seen.done === 4 && b.seen.done === 9, 15_000);
    expect(a.seen.most).to.equal(1);
    // b had its three places while a ran: a's jobs took none of them.
    expect(b.seen.most).to.equal(3);
  });

  it('runs the jobs queued before the flags (none), still within their kind’s limit', async function () {
    this.timeout(20_000);
    const a = kind('test_kind_a', 1);
    const b = kind('test_kind_b', 2);
    await queue('test_kind_a', 3, false);
    await queue('test_kind_b', 3, false);
    runtime = await startJobs([a.task, b.task]);
    await until(() => a.seen.done === 3 && b.seen.done === 3, 15_000);
    expect(a.seen.most).to.equal(1);
    expect(b.seen.most).to.be.at.most(2);
  });

  it('leaves a kind set to 0 to the other processes: its jobs stay queued, untouched', async () => {
    const a = kind('test_kind_a', 0);
    const b = kind('test_kind_b', 1);
    await queue('test_kind_a', 1);
    await queue('test_kind_a', 1, false);
    await queue('test_kind_b', 1);
    runtime = await startJobs([a.task, b.task]);
    await until(() => b.seen.done === 1);
    await sleep(500);
    expect(a.seen.done).to.equal(0);
    expect((await jobs('test_kind_a')).map((job) => [job.attempts, job.locked_at])).to.deep.equal([
      [0, null],
      [0, null],
    ]);
  });

  it('releases a job of any task held by a process that died, with one sweeper', async () => {
    const a = kind('test_kind_a', 1);
    await queue('test_kind_a', 1);
    await testEnv().sql(
      `update graphile_worker._private_jobs set locked_by = 'a worker that died', locked_at = now() - interval '6 minutes'`,
    );
    runtime = await startJobs([a.task]);
    await until(() => a.seen.done === 1);
  });

  it('runs an `everyMs` task again and again, one job waiting under its key; a job a dead process held does not stop it', async () => {
    let runs = 0;
    const every: JobTask = { identifier: 'test_every', schedule: { everyMs: 200 }, run: async () => void runs++ };
    // The last run was cut short by a process that died: its job is still held.
    await testEnv().sql(`select graphile_worker.add_job('test_every', '{}'::json, job_key := 'test_every')`);
    await testEnv().sql(`update graphile_worker._private_jobs set locked_by = 'a worker that died', locked_at = now()`);
    runtime = await startJobs([every]);
    await until(() => runs >= 3);
    const waiting = (await jobs('test_every')).filter((job) => job.key === 'test_every');
    expect(waiting).to.have.length(1);
    await runtime.stop();
    runtime = null;
    const stoppedAt = runs;
    await sleep(600);
    expect(runs, 'nothing runs once stopped').to.equal(stoppedAt);
  });

  it('tells of a failed `everyMs` run and runs it again on schedule', async () => {
    let runs = 0;
    const notices: string[] = [];
    const failing: JobTask = {
      identifier: 'test_every',
      schedule: { everyMs: 100 },
      async run() {
        runs++;
        throw new Error('the database is away');
      },
    };
    const env = testEnv();
    runtime = await JobRuntime.start(env.config.databaseUrl!, [failing], {
      scope: env.scope,
      pollIntervalMs: 50,
      notice: (message) => notices.push(message),
    });
    await until(() => runs >= 3);
    expect(notices).to.include('a recurring job failed; it runs again on schedule');
    // No failed job is left behind: each run handed its key on before it failed.
    expect((await jobs('test_every')).filter((job) => job.attempts > 0 && job.locked_at === null)).to.deep.equal([]);
  });

  it('starts its runner again when graphile-worker stops it on an error (its cron meeting a database error)', async function () {
    this.timeout(20_000);
    const env = testEnv();
    const notices: string[] = [];
    // graphile-worker's cron records a schedule it has not seen in known_crontabs as it starts: refused, its cron
    // aborts, and graphile-worker stops the runner.
    await env.sql(`
      create or replace function public.test_refuse_crontabs() returns trigger language plpgsql as $$
      begin raise exception 'the database refuses'; end $$;
      create trigger test_refuse_crontabs before insert on graphile_worker._private_known_crontabs
        for each statement execute function public.test_refuse_crontabs();
    `);
    const a = kind('test_kind_a', 1, 10);
    const schedule: JobTask = { identifier: `test_cron_${Date.now()}`, schedule: { cron: '0 0 1 1 *' }, run: async () => {} };
    try {
      runtime = await JobRuntime.start(env.config.databaseUrl!, [a.task, schedule], {
        scope: env.scope,
        pollIntervalMs: 100,
        restartAfterMs: 200,
        notice: (message) => notices.push(message),
      });
      await until(() => notices.includes('background jobs stopped on an error; they start again shortly'));
    } finally {
      await env.sql(`
        drop trigger if exists test_refuse_crontabs on graphile_worker._private_known_crontabs;
        drop function if exists public.test_refuse_crontabs();
      `);
    }
    await queue('test_kind_a', 2);
    await until(() => a.seen.done === 2, 10_000);
  });

  it('queues mail and webhook jobs with their kind’s flag, in the transaction of the change', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const created = await forumctl([
        'webhooks',
        'create',
        receiver.url,
        '--events',
        'topic.created',
        '--secret',
        'a shared secret',
        '--json',
      ]);
      expect(created.code, created.stderr).to.equal(0);
      const alice = await makeUser('alice');
      await makeTopic(alice, await makeNode('Flags'));
      expect((await jobs(DELIVERY_TASK)).map((job) => job.flags)).to.deep.equal([{ [DELIVERY_TASK]: true }]);
      await testEnv().scope(() =>
        testEnv()
          .container.get<UnitOfWork>(UnitOfWork)
          .run(() => testEnv().container.get<DomainEvents>(DomainEvents).record({ type: 'account.approved', userId: alice.id })),
      );
      expect((await jobs(MAIL_TASK)).map((job) => job.flags)).to.deep.equal([{ [MAIL_TASK]: true }]);
    } finally {
      await receiver.stop();
    }
  });

  describe('in a server process', () => {
    let server: ServerProcess | null = null;

    afterEach(async () => {
      await server?.terminate();
      server = null;
    });

    it('runs one runner on one pool, and the due-mail mover as one of its tasks', async function () {
      this.timeout(60_000);
      server = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
      // graphile-worker's runner listens for new jobs on one connection of its pool: one listener, one runner (the
      // test's own process runs none now).
      const listening = `select count(*) filter (where query like 'LISTEN%')::int as listeners,
                                count(*) filter (where application_name = 'forum jobs')::int as connections
                         from pg_stat_activity where datname = current_database()`;
      await until(async () => (await testEnv().sql<{ listeners: number }>(listening))[0]!.listeners > 0, 10_000);
      await sleep(500);
      const [row] = await testEnv().sql<{ listeners: number; connections: number }>(listening);
      expect(row!.listeners).to.equal(1);
      // One pool: WEBHOOKS_CONCURRENCY (4) + MAIL_CONCURRENCY (2) + 1 workers and the listener, at most 9 connections.
      expect(row!.connections).to.be.within(1, 9);
      expect((await jobs(DUE_MAIL_TASK)).filter((job) => job.key === DUE_MAIL_TASK)).to.have.length(1);
    });

    it('with MAIL_CONCURRENCY=0 delivers webhooks, and sends no mail nor runs mail’s schedules', async function () {
      this.timeout(60_000);
      const receiver = await WebhookReceiver.start();
      try {
        const created = await forumctl([
          'webhooks',
          'create',
          receiver.url,
          '--events',
          'topic.created',
          '--secret',
          'a shared secret',
          '--json',
        ]);
        expect(created.code, created.stderr).to.equal(0);
        const alice = await makeUser('alice');
        for (const flagged of [true, false]) {
          await testEnv().sql(
            `select graphile_worker.add_job($1, json_build_object('kind', 'approved', 'userId', $2::int),
               flags := case when $3 then array[$1] end)`,
            [MAIL_TASK, alice.id, flagged],
          );
        }
        server = await startServerProcess({
          DATABASE_URL: testEnv().config.databaseUrl!,
          // The test's key: the webhook's secret forumctl sealed here is opened there.
          SECRET_KEY: testEnv().config.secretKey!,
          MAIL_CONCURRENCY: '0',
          WEBHOOKS_ALLOW_PRIVATE: 'true',
        });
        await makeTopic(alice, await makeNode('Webhooks'));
        await receiver.waitFor(1, 15_000);
        await sleep(1_000);
        // Both mail jobs, the flagged one and one queued before flags, wait for a process that sends mail.
        expect((await jobs(MAIL_TASK)).map((job) => [job.attempts, job.locked_at])).to.deep.equal([
          [0, null],
          [0, null],
        ]);
        expect(await jobs(DUE_MAIL_TASK)).to.deep.equal([]);
      } finally {
        await receiver.stop();
      }
    });
  });
});
