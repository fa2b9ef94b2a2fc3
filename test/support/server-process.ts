import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';

/** The real server (`dist/src/main.js`) in a child process, on a free port. */
export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  terminate(): Promise<number | null>;
}

/** Starts it with these environment variables on top of ours; it must log at `info` (its URL is read from the log). */
export async function startServerProcess(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const { child, output } = spawnServerProcess(env);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = /"url":"(http:\/\/[^"]+)"/.exec(output());
      if (match) resolve(match[1]!);
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`the server exited early with ${code}: ${output()}`)));
  });
  return {
    url,
    child,
    output,
    async terminate() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** The server process, started but not yet (or never) listening. */
export function spawnServerProcess(env: Record<string, string | undefined>): Pick<ServerProcess, 'child' | 'output'> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    // Rate limits off unless a test asks for them: every test server counts from 127.0.0.1 in one shared table, and
    // a load test alone sends more than the default 1,200 requests a minute.
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  // The last 256 KiB is plenty to explain a failure, and bounded under load (one log line per request).
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-262_144));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return { child, output: () => output };
}
