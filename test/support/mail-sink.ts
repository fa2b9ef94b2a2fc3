import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type ParsedMail, simpleParser } from 'mailparser';
import { until } from './wait.js';

/** The account the sink accepts (a password that needs percent-encoding in a URL). */
export const SINK_USER = 'forum';
export const SINK_PASSWORD = 'p@ss word';

/** A message as the SMTP server received it: the envelope, the session, the raw bytes and mailparser's reading. */
export interface ReceivedMail {
  from: string | null;
  to: string[];
  /** The session was upgraded with STARTTLS. */
  secure: boolean;
  /** Who authenticated, if anyone. */
  user: string | null;
  raw: Buffer;
  parsed: ParsedMail;
}

/** A real SMTP server process (test/support/smtp-sink.ts) on 127.0.0.1, and what it received. */
export class MailSink {
  readonly received: ReceivedMail[] = [];
  private pending: Promise<void> = Promise.resolve();

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly port: number,
    private readonly folder: string,
  ) {}

  /** Starts one on `port` (default: a free one). */
  static async start(options: { port?: number; starttls?: boolean } = {}): Promise<MailSink> {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'forum-smtp-sink-'));
    const script = path.join(path.dirname(new URL(import.meta.url).pathname), 'smtp-sink.js');
    const args = [script, folder, String(options.port ?? 0), ...(options.starttls ? ['--starttls'] : [])];
    const child = spawn(process.execPath, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, SINK_USER, SINK_PASSWORD },
    });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    let sink: MailSink | null = null;
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the SMTP sink exited with ${code}: ${errors}`)));
      lines.on('line', (line) => {
        const message = JSON.parse(line) as { port?: number; file?: string } & Omit<ReceivedMail, 'raw' | 'parsed'>;
        if (message.port !== undefined) resolve(message.port);
        else if (sink) sink.receive(message as Omit<ReceivedMail, 'raw' | 'parsed'> & { file: string });
      });
    });
    sink = new MailSink(child, port, folder);
    return sink;
  }

  /** Waits until `count` messages have arrived (and been read). */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
    await until(() => this.received.length >= count, timeoutMs);
    await this.pending;
    return this.received;
  }

  /** Stops the process (SIGTERM) and removes what it wrote. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      await exited;
    }
    await this.pending;
    await rm(this.folder, { recursive: true, force: true });
  }

  private receive(message: Omit<ReceivedMail, 'raw' | 'parsed'> & { file: string }): void {
    this.pending = this.pending.then(async () => {
      const raw = await readFile(message.file);
      const { file: _file, ...envelope } = message;
      this.received.push({ ...envelope, raw, parsed: await simpleParser(raw) });
    });
  }
}

/** A port nothing listens on (now): for a mail server that is down. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
