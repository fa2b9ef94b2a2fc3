import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { testEnv } from '../support/env.js';
import { until } from '../support/wait.js';

/** Every process below `pid`, children first (Linux). */
function descendantsOf(pid: number): number[] {
  let children: number[];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    children = [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

interface Started {
  npm: ChildProcess;
  port: number;
  output(): string;
  /** The processes npm started (the start script, the server, its workers). */
  processes: number[];
}

/**
 * `npm start` as the README runs it, on a free port, with the dist/ the test build made (`--no-build` skips the
 * second compile). Resolves once every server process listens.
 */
async function npmStart(env: Record<string, string>, servers: number): Promise<Started> {
  const port = await freePort();
  const npm = spawn('npm', ['start', '--', '--no-build'], {
    env: {
      ...process.env,
      DATABASE_URL: testEnv().config.databaseUrl!,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const listeningLines = () => output.split('\n').filter((line) => line.includes('forum is listening')).length;
  await until(() => {
    if (npm.exitCode !== null) throw new Error(`npm start exited early with ${npm.exitCode}: ${output}`);
    return listeningLines() === servers;
  }, 30_000);
  const processes = descendantsOf(npm.pid!);
  // The start script, the server, and with WEB_CONCURRENCY=n its n workers.
  expect(processes.length, output).to.equal(servers === 1 ? 2 : 2 + servers);
  expect(await listening(port)).to.equal(true);
  return { npm, port, output: () => output, processes };
}

describe('npm start and signals (issue 31: SIGTERM to npm used to orphan the server)', function () {
  this.timeout(60_000);
  let started: Started | null = null;

  afterEach(() => {
    // A failed test leaves nothing running.
    for (const pid of started?.processes ?? []) if (alive(pid)) process.kill(pid, 'SIGKILL');
    started = null;
  });

  for (const workers of [1, 2]) {
    it(`SIGTERM to npm's pid stops the server (WEB_CONCURRENCY=${workers}): exit 0, nothing left, the port free`, async () => {
      started = await npmStart({ WEB_CONCURRENCY: String(workers) }, workers);
      const exited = once(started.npm, 'exit');
      started.npm.kill('SIGTERM');
      const [code, signal] = (await exited) as [number | null, string | null];
      expect({ code, signal }, started.output()).to.deep.equal({ code: 0, signal: null });
      expect(started.processes.filter(alive), started.output()).to.deep.equal([]);
      expect(await listening(started.port)).to.equal(false);
      expect(started.output()).to.match(/"msg":"stopped"/);
    });
  }

  it('SIGTERM to npm stops the server on its embedded PostgreSQL (no DATABASE_URL), and the PostgreSQL with it', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-npm-start-'));
    try {
      started = await npmStart({ DATABASE_URL: '', FORUM_DATA_DIR: dataDir }, 1);
      const exited = once(started.npm, 'exit');
      started.npm.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(code, started.output()).to.equal(0);
      expect(started.processes.filter(alive)).to.deep.equal([]);
      expect(await listening(started.port)).to.equal(false);
      const postgres = () => {
        try {
          return execFileSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).trim();
        } catch {
          return '';
        }
      };
      await until(() => postgres() === '', 10_000);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('SIGKILL to npm (nothing to forward it) still stops the server: the start script sees npm go', async () => {
    started = await npmStart({}, 1);
    const exited = once(started.npm, 'exit');
    started.npm.kill('SIGKILL');
    await exited;
    const { processes, port } = started;
    await until(() => processes.every((pid) => !alive(pid)), 10_000);
    expect(await listening(port)).to.equal(false);
  });
});
