import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import pg from 'pg';
import { MIGRATION_LOCK } from '../../src/adapters/persistence/database/orm.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { spawnServerProcess, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/wait.js';

/** The child processes of `pid` (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function clientAndUser(): Promise<{ client_id: string; client_secret: string }> {
  const user = await forumctl([
    'users',
    'create',
    'alice',
    '--email',
    'alice@example.com',
    '--password',
    'correct horse battery',
  ]);
  expect(user.code, user.stderr).to.equal(0);
  const app = await forumctl(['apps', 'create', 'Processes', '--json']);
  return app.json<{ client_id: string; client_secret: string }>();
}

const tokenRequest = (server: ServerProcess, body: Record<string, string>) =>
  fetch(`${server.url}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('several processes on one database (contract §15: nothing shared lives in one process)', () => {
  describe('two server processes', () => {
    let a: ServerProcess;
    let b: ServerProcess;

    before(async function () {
      this.timeout(60_000);
      const env = { DATABASE_URL: testEnv().config.databaseUrl!, LOGIN_MAX_FAILURES: '3', LOGIN_THROTTLE_WINDOW: '60' };
      [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    });

    after(async () => {
      await Promise.all([a.terminate(), b.terminate()]);
    });

    it('count failed logins together: three failures spread over both lock the account on both', async () => {
      const client = await clientAndUser();
      const attempt = (server: ServerProcess, password: string) =>
        tokenRequest(server, { grant_type: 'password', username: 'alice', password, ...client }).then((res) => res.status);
      expect([await attempt(a, 'wrong 1'), await attempt(b, 'wrong 2'), await attempt(a, 'wrong 3')]).to.deep.equal([
        400, 400, 400,
      ]);
      expect(await attempt(b, 'wrong 4')).to.equal(429);
      expect(await attempt(a, 'wrong 5')).to.equal(429);
    });

    it('share tokens: one issued by one process works in the other, and a revocation in either counts in both', async () => {
      const client = await clientAndUser();
      const granted = await tokenRequest(a, {
        grant_type: 'password',
        username: 'alice',
        password: 'correct horse battery',
        ...client,
      });
      expect(granted.status).to.equal(200);
      const { access_token: token } = (await granted.json()) as { access_token: string };
      const hello = (server: ServerProcess) =>
        fetch(`${server.url}/api/v3/hello`, { headers: { Authorization: `Bearer ${token}` } }).then((res) => res.status);
      expect([await hello(a), await hello(b)]).to.deep.equal([200, 200]);
      const revoked = await fetch(`${b.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, ...client }),
      });
      expect(revoked.status).to.equal(200);
      expect([await hello(a), await hello(b)]).to.deep.equal([401, 401]);
    });
  });

  describe('WEB_CONCURRENCY=2', () => {
    let server: ServerProcess | null = null;
    let locker: pg.Client | null = null;

    afterEach(async () => {
      await locker?.end().catch(() => undefined);
      locker = null;
      if (server && server.child.exitCode === null) await server.terminate();
      server = null;
    });

    it('runs two workers on one port, sums their metrics, and starts another when one dies', async function () {
      this.timeout(60_000);
      server = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl!, WEB_CONCURRENCY: '2' });
      const primary = server.child.pid!;
      await until(() => childrenOf(primary).length === 2, 15_000);
      for (let i = 0; i < 30; i++) expect((await fetch(`${server.url}/api/v3/nodes`)).status).to.equal(200);
      // A scrape gathers every worker's metrics; on a loaded machine one may answer too late for a scrape (the
      // scrape then fails): the next one has them all.
      let metrics = '';
      const served = async () => {
        const res = await fetch(`${server!.url}/metrics`);
        metrics = await res.text();
        return /^http_request_duration_seconds_count\{method="GET",route="\/api\/v3\/nodes",status="200"\} (\d+)$/m.exec(
          metrics,
        )?.[1];
      };
      await until(async () => (await served()) !== undefined, 15_000).catch(() => undefined);
      expect(Number(await served()), metrics.slice(0, 400)).to.equal(30);

      const [victim] = childrenOf(primary);
      process.kill(victim!, 'SIGKILL');
      await until(() => {
        const workers = childrenOf(primary);
        return workers.length === 2 && !workers.includes(victim!);
      }, 15_000);
      await until(async () => (await fetch(`${server!.url}/readyz`).catch(() => null))?.status === 200, 15_000);
      expect(server.output()).to.contain('a worker stopped; starting another');
    });

    it('stops every worker on SIGTERM, letting the request in flight finish, and exits 0', async function () {
      this.timeout(60_000);
      server = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl!, WEB_CONCURRENCY: '2' });
      const primary = server.child.pid!;
      await until(() => childrenOf(primary).length === 2, 15_000);
      locker = new pg.Client({ connectionString: testEnv().config.databaseUrl! });
      await locker.connect();
      await locker.query('begin; lock table topics in access exclusive mode');
      const inFlight = fetch(`${server.url}/api/v3/topics`).then((res) => res.status);
      await sleep(300);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      await sleep(300);
      await locker.query('rollback');
      expect(await inFlight).to.equal(200);
      const [code] = (await exited) as [number];
      expect(code, server.output()).to.equal(0);
      expect(childrenOf(primary)).to.deep.equal([]);
    });
  });
  describe('a signal while starting', () => {
    it('stops a cluster whose workers are still loading, and exits 0', async function () {
      this.timeout(60_000);
      const { child, output } = spawnServerProcess({ DATABASE_URL: testEnv().config.databaseUrl!, WEB_CONCURRENCY: '2' });
      // Workers exist as soon as they are forked, a second or so before they can handle a signal.
      await until(() => childrenOf(child.pid!).length === 2, 15_000);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, string | null];
      expect({ code, signal }, output()).to.deep.equal({ code: 0, signal: null });
      expect(output()).to.contain('"failedExits":0');
    });

    it('stops a server still waiting for the migration lock, starts nothing more, and exits 0', async function () {
      this.timeout(60_000);
      const holder = new pg.Client({ connectionString: testEnv().config.databaseUrl! });
      await holder.connect();
      try {
        // The lock every migration takes first: the server waits there.
        await holder.query('select pg_advisory_lock($1, $2)', [...MIGRATION_LOCK]);
        const { child, output } = spawnServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
        const waiting = async () =>
          (
            await holder.query(
              "select 1 from pg_stat_activity where application_name = 'forum migrations' and wait_event_type = 'Lock'",
            )
          ).rowCount === 1;
        await until(waiting, 15_000);
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await sleep(200);
        expect(child.exitCode, 'still starting: the migration finishes first').to.equal(null);
        await holder.query('select pg_advisory_unlock($1, $2)', [...MIGRATION_LOCK]);
        const [code, signal] = (await exited) as [number | null, string | null];
        expect({ code, signal }, output()).to.deep.equal({ code: 0, signal: null });
        expect(output()).to.contain('"msg":"stopped"');
        expect(output()).not.to.contain('forum is listening');
      } finally {
        await holder.end();
      }
    });
  });
});
