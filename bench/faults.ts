/**
 * `npm run bench:faults`: the service under the faults a black-box harness throws at it, measured.
 *
 * 1. SIGTERM under load: 8 kept-alive clients (and, separately, 8 clients opening a connection per request)
 *    send `GET /api/v3/topics` back to back; the server gets SIGTERM. Counted: requests answered, connections
 *    refused (the request never left: safe to retry), requests sent and cut without an answer, the exit code.
 * 2. PostgreSQL stopped for 5 s under the same load (an external database: DATABASE_URL, no embedded restart):
 *    the status codes while it is away, the slowest answer, and the seconds from its return to the first 200.
 *
 * Everything runs on an embedded PostgreSQL cluster of its own in a temporary folder.
 *
 *   npm run bench:faults -- --runs 5
 */
import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import http from 'node:http';
import { EmbeddedPostgres } from '../src/adapters/persistence/database/embedded-postgres.js';
import { connect, migrate } from '../src/adapters/persistence/database/orm.js';
import { load } from '../test/support/load.js';
import { readArgs } from './args.js';
import { startServerProcess } from '../test/support/server-process.js';

const args = readArgs({ runs: { type: 'string', default: '5' } }, 'usage: npm run bench:faults -- [--runs 5]');
const runs = Number(args.runs);

async function sigterm(databaseUrl: string, keepAlive: boolean) {
  const server = await startServerProcess({ DATABASE_URL: databaseUrl });
  const run = load(server.url, { connections: 8, path: '/api/v3/topics', keepAlive });
  await sleep(2_000);
  const started = Date.now();
  const code = await server.terminate();
  const stoppedMs = Date.now() - started;
  const outcome = await run.stop();
  return { answered: outcome.answered, refused: outcome.refused, cut: outcome.unanswered, code, stoppedMs };
}

interface Sample {
  at: number;
  status: number | 'error';
  ms: number;
}

/** 8 kept-alive clients recording every answer with its time, until stopped. */
function recordingLoad(url: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const samples: Sample[] = [];
  let running = true;
  const once = () =>
    new Promise<void>((resolve) => {
      const sent = Date.now();
      const request = http.get(`${url}/api/v3/topics`, { agent }, (response) => {
        response.resume();
        response.on('end', () => {
          samples.push({ at: sent, status: response.statusCode!, ms: Date.now() - sent });
          resolve();
        });
      });
      request.on('error', () => {
        samples.push({ at: sent, status: 'error', ms: Date.now() - sent });
        resolve();
      });
    });
  const clients = Array.from({ length: 8 }, async () => {
    while (running) await once();
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(clients);
      agent.destroy();
    },
  };
}

async function outage(cluster: EmbeddedPostgres, databaseUrl: string) {
  const server = await startServerProcess({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
  });
  const traffic = recordingLoad(server.url);
  await sleep(1_000);
  const down = Date.now();
  await cluster.stop();
  const stopped = Date.now();
  await sleep(5_000);
  const restarting = Date.now();
  await cluster.ensureRunning({ samePort: true });
  const back = Date.now();
  await sleep(2_000);
  await traffic.stop();
  await server.terminate();
  const during = traffic.samples.filter((s) => s.at >= stopped && s.at < restarting);
  const statuses: Record<string, number> = {};
  for (const sample of during) statuses[sample.status] = (statuses[sample.status] ?? 0) + 1;
  const firstOk = traffic.samples.filter((s) => s.at >= back && s.status === 200).sort((a, b) => a.at - b.at)[0];
  return {
    stopSeconds: (stopped - down) / 1000,
    requestsWhileDown: during.length,
    statuses,
    slowestMsWhileDown: Math.max(0, ...during.map((s) => s.ms)),
    secondsFromBackToFirst200: firstOk ? (firstOk.at + firstOk.ms - back) / 1000 : null,
    restartSeconds: (back - restarting) / 1000,
  };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-faults-'));
  const cluster = new EmbeddedPostgres(dataDir);
  try {
    const databaseUrl = await cluster.ensureRunning();
    const persistence = await connect(databaseUrl);
    await migrate(persistence.orm);
    await persistence.close();

    for (const keepAlive of [true, false]) {
      console.log(`\nSIGTERM under load, 8 clients, ${keepAlive ? 'kept-alive connections' : 'a connection per request'}:`);
      for (let i = 1; i <= runs; i++) console.log(`  run ${i}:`, JSON.stringify(await sigterm(databaseUrl, keepAlive)));
    }
    console.log('\nPostgreSQL stopped for 5 s under load (8 kept-alive clients):');
    for (let i = 1; i <= Math.min(runs, 3); i++) console.log(`  run ${i}:`, JSON.stringify(await outage(cluster, databaseUrl)));
  } finally {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
