import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/adapters/persistence/database/database.js';
import { EmbeddedPostgres, unreachableFolder } from '../../src/adapters/persistence/database/embedded-postgres.js';
import { connect, migrate, MIGRATIONS } from '../../src/adapters/persistence/database/orm.js';
import { createTestDatabase } from '../support/database.js';

const isRoot = process.getuid?.() === 0;

/** A fresh data folder for an embedded cluster of its own, removed (cluster stopped) after the test. */
async function dataFolder(): Promise<{ dir: string; cleanUp(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'forum-embedded-'));
  return {
    dir,
    async cleanUp() {
      await new EmbeddedPostgres(dir).stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `node bin/forumctl.js …` as a user would, with this environment on top of ours. */
function forumctlProcess(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/forumctl.js', ...args], {
      env: { ...process.env, DATABASE_URL: '', TEST_DATABASE_URL: '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('the embedded PostgreSQL', function () {
  this.timeout(90_000);

  it('is never stopped by a process that leaves while another one still uses it, even an idle one', async () => {
    const folder = await dataFolder();
    try {
      const config = { ...loadConfig({}), dataDir: folder.dir };
      const server = await openDatabase(config);
      // An idle server holds no pool connection: cut them all, as the pools' idle timeout would.
      const admin = new pg.Client({ connectionString: server.orm.config.get('clientUrl') });
      await admin.connect();
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where backend_type = 'client backend' and pid <> pg_backend_pid() and application_name <> 'forum lease'`,
      );
      await admin.end();
      // forumctl comes and goes.
      const cli = await openDatabase(config);
      await cli.close();
      expect(await server.sql.one('select 1 as one'), 'the server still has its database').to.deep.equal({ one: 1 });
      // The last one out stops it.
      await server.close();
      const probe = new pg.Client({ connectionString: server.orm.config.get('clientUrl') });
      const refused = await probe.connect().then(
        () => false,
        () => true,
      );
      await probe.end().catch(() => undefined);
      expect(refused, 'stopped once nobody uses it').to.equal(true);
    } finally {
      await folder.cleanUp();
    }
  });

  it('is started again by the server when it goes away anyway, on the same port', async () => {
    const folder = await dataFolder();
    const notices: string[] = [];
    try {
      const config = { ...loadConfig({}), dataDir: folder.dir };
      const server = await openDatabase(config, { notice: (message) => notices.push(message) });
      try {
        // It goes away as a crash or an operator's kill would take it: a signal, nobody waiting for it. (Stopping it
        // with `pg_ctl stop -w` here raced the server's own restart: pg_ctl then waited on the new postmaster.)
        const pid = Number((await readFile(path.join(folder.dir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
        process.kill(pid, 'SIGINT');
        const deadline = Date.now() + 20_000;
        while (notices.at(-1) !== 'embedded PostgreSQL is back' && Date.now() < deadline) await sleep(100);
        expect(await server.isReady(), 'ready again').to.equal(true);
        expect(await server.sql.one('select 1 as one')).to.deep.equal({ one: 1 });
        expect(notices[0]).to.equal('embedded PostgreSQL went away; starting it again');
        expect(notices.at(-1)).to.equal('embedded PostgreSQL is back');
      } finally {
        await server.close();
      }
    } finally {
      await folder.cleanUp();
    }
  });

  it('lets any number of processes start at once on a new data folder (initdb, start and migrations)', async () => {
    const folder = await dataFolder();
    try {
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => forumctlProcess(['nodes', 'list', '--json'], { FORUM_DATA_DIR: folder.dir })),
      );
      expect(
        runs.map((run) => run.code),
        runs.map((run) => run.stderr).join('\n'),
      ).to.deep.equal([0, 0, 0, 0]);
    } finally {
      await folder.cleanUp();
    }
  });

  it(
    isRoot
      ? 'explains in one line, and refuses, a folder that the postgres user cannot enter (we run as root)'
      : 'runs from a private folder, which only matters when running as root',
    async () => {
      const parent = await mkdtemp(path.join(os.tmpdir(), 'forum-private-'));
      try {
        await chmod(parent, 0o700);
        const run = await forumctlProcess(['nodes', 'list', '--json'], { FORUM_DATA_DIR: path.join(parent, 'data') });
        if (isRoot) {
          expect(run.code).to.equal(1);
          const lines = run.stderr.trim().split('\n');
          expect(lines, run.stderr).to.have.length(1);
          expect(lines[0]).to.include(`cannot enter ${parent}`).and.include(`chmod o+x ${parent}`);
        } else {
          expect(run.code, run.stderr).to.equal(0);
        }
      } finally {
        await new EmbeddedPostgres(path.join(parent, 'data')).stop().catch(() => undefined);
        await rm(parent, { recursive: true, force: true });
      }
    },
  );
});

describe('unreachableFolder', () => {
  it('names the first folder on the way that a user may not enter, judged by owner, group and other bits', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'forum-reach-'));
    try {
      const stranger = { uid: 4_000_001, groups: [4_000_001] };
      await chmod(parent, 0o700);
      expect(await unreachableFolder(path.join(parent, 'a', 'b'), stranger)).to.deep.equal({ folder: parent, mode: '700' });
      await chmod(parent, 0o701);
      expect(await unreachableFolder(path.join(parent, 'a', 'b'), stranger)).to.equal(null);
      const owner = { uid: process.getuid!(), groups: [] };
      await chmod(parent, 0o700);
      expect(await unreachableFolder(parent, owner)).to.equal(null);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('migrations', () => {
  it('take an advisory lock: four processes migrating a new database at once all succeed, once', async function () {
    this.timeout(60_000);
    const database = await createTestDatabase();
    try {
      const runs = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const persistence = await connect(database.url, { poolMax: 2 });
          try {
            return await migrate(persistence.orm);
          } finally {
            await persistence.close();
          }
        }),
      );
      expect(runs.flat()).to.deep.equal(MIGRATIONS.map((m) => m.name));
    } finally {
      await database.drop();
    }
  });
});
