import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../../src/config.js';

/** s3rver's own credentials: the only ones it accepts. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';
const CLI = path.resolve('node_modules/s3rver/bin/s3rver.js');

/**
 * A real S3-compatible server (s3rver) in a child process, on a free port of 127.0.0.1, keeping its objects in a
 * temporary folder of its own, with one bucket. `stop()` takes it down (its data kept) and `start()` brings it back on
 * the same port: a store that is down, then back. `close()` stops it for good and removes its folder; a test run that
 * ends without it still kills the process and removes the folder as it exits.
 */
export interface S3Server {
  /** `http://127.0.0.1:<port>`: what S3_ENDPOINT is set to. */
  endpoint: string;
  bucket: string;
  /** The settings the service reads from S3_* for this server (no S3_PUBLIC_URL). */
  settings: S3Settings;
  /** The same as environment variables, for a server process or forumctl (UPLOADS_STORE not included). */
  env: Record<string, string>;
  /** A client of the test's own, to look at the bucket behind the adapter's back (destroy it when done). */
  client(): S3Client;
  /** Every key in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** Deletes every object in the bucket. */
  empty(): Promise<void>;
  /** Takes the server down (its process exits; its objects stay in its folder). */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the same objects. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'forum-uploads'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'forum-s3-'));
  let child: ChildProcessWithoutNullStreams | null = null;
  let port = 0;
  let closed = false;
  // Should the run end without close() (a failed before hook, mocha --exit), neither the process nor the folder stays.
  const atExit = () => {
    child?.kill('SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  };
  process.once('exit', atExit);

  const launch = async () => {
    // s3rver signs ListObjectsV2's continuation tokens with DES, which OpenSSL 3 keeps in its legacy provider: without
    // it, a listing of more than 1,000 keys answers 500.
    const args = [
      '--openssl-legacy-provider',
      CLI,
      '--directory',
      directory,
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--silent',
    ];
    // The bucket is made at the first start; its folder stays, so a restart finds it.
    if (port === 0) args.push('--configure-bucket', bucket);
    const started = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`s3rver did not start within 15 s: ${output}`)), 15_000);
      const fail = (error: Error) => {
        clearTimeout(timer);
        started.kill('SIGKILL');
        reject(error);
      };
      started.stdout.on('data', () => {
        const match = /S3rver listening on [^:\s]+:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
      started.once('exit', (code) => fail(new Error(`s3rver exited with ${code} before listening: ${output}`)));
      started.once('error', fail);
    });
  };

  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };

  await launch();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    endpoint,
    bucket,
    region: REGION,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    publicUrl: null,
  };
  const client = () =>
    new S3Client({
      endpoint,
      region: REGION,
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    });
  const keys = async () => {
    const s3 = client();
    try {
      const found: string[] = [];
      let token: string | undefined;
      do {
        const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) found.push(object.Key!);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort();
    } finally {
      s3.destroy();
    }
  };

  return {
    endpoint,
    bucket,
    settings,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    },
    client,
    keys,
    async empty() {
      const all = await keys();
      const s3 = client();
      try {
        for (let i = 0; i < all.length; i += 1000) {
          const batch = all.slice(i, i + 1000).map((Key) => ({ Key }));
          await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch, Quiet: true } }));
        }
      } finally {
        s3.destroy();
      }
    },
    stop,
    async start() {
      if (closed) throw new Error('this s3rver is closed');
      if (child) return;
      await launch();
    },
    async close() {
      if (closed) return;
      closed = true;
      await stop();
      process.removeListener('exit', atExit);
      await rm(directory, { recursive: true, force: true });
    },
  };
}
