import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../src/adapters/persistence/database/embedded-postgres.js';
import { treeCpuMicros, treeRssMb } from './proc.js';

/** This service's entry point and the reference server's (bench/reference-server.ts), as `npm run build:test` builds them. */
export const SERVICE_ENTRY = 'dist/src/main.js';
export const REFERENCE_ENTRY = 'dist/bench/reference-server.js';

/** A server process the bench started, listening on 127.0.0.1. */
export interface RunningServer {
  url: string;
  pid: number;
  /** CPU time (user + system) of the process and its descendants so far (a cluster's primary and workers), in µs. */
  cpuMicros(): Promise<number>;
  /** Resident memory of the process and its descendants, in MiB. */
  rssMb(): Promise<number>;
  /** Sends SIGTERM and resolves when it has exited. */
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** Further environment variables (the database, address and settings below win over them). */
  env?: Record<string, string>;
  /** Pin it to these CPUs (`taskset -c`), so that the load generator and it do not trade places. */
  cpus?: string;
}

/**
 * Starts `entry` (this service or the reference server) on a free port, on the database `databaseUrl`, and waits
 * (up to 20 s) until its /healthz answers.
 */
export async function startServer(entry: string, databaseUrl: string, options: ServerOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const [command, commandArgs] = options.cpus
    ? ['taskset', ['-c', options.cpus, process.execPath, entry]]
    : [process.execPath, [entry]];
  const child: ChildProcess = spawn(command, commandArgs, {
    env: {
      ...process.env,
      ...options.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The load comes from one address and one token: limits high enough never to bite, still counted.
      RATE_LIMIT_PER_MINUTE: '1000000000',
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000000',
      // The upload scenario sends one account's photos by the hundred.
      UPLOADS_PER_DAY: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const pid = child.pid!;
  return {
    url,
    pid,
    cpuMicros: () => treeCpuMicros(pid),
    rssMb: () => treeRssMb(pid),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
