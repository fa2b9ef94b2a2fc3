/**
 * `npm run bench`: seeds a database (once; kept under .data-bench), starts this service and the minimal
 * reference server on it, loads both with autocannon scenario by scenario, and prints each figure with its
 * ratio to the reference. Results also go to bench-results/<date>.json.
 *
 *   npm run bench -- --sizes 10000,100000 --duration 10 --connections 32
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Table from 'cli-table3';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { buildContainer, useCasesOf } from '../src/container.js';
import { EmbeddedPostgres, freePort } from '../src/adapters/persistence/embedded-postgres.js';
import { connect, migrate } from '../src/adapters/persistence/orm.js';
import { readArgs } from './args.js';
import { treeCpuMicros, treeRssMb } from './proc.js';
import { measureLive, type LiveFigures } from './live.js';
import { measureMixed, type MixedFigures } from './mixed.js';
import type { SeedPlan } from '../src/application/maintenance/seed.js';
import { replyText } from './reply-text.js';
import { median } from './median.js';

const args = readArgs(
  {
    sizes: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '32' },
    only: { type: 'string' },
    processes: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '1' },
    out: { type: 'string', default: 'bench-results' },
  },
  `usage: npm run bench -- [options]
  --sizes 10000,100000   topic counts to seed and measure (default 100000)
  --duration 10          seconds a scenario is loaded (after --warmup 2)
  --connections 32       concurrent connections
  --only 'GET /topics|mixed'  the scenarios whose names hold one of these parts (all without it)
  --processes 1,2        the service's WEB_CONCURRENCY, each in turn
  --rounds 3             the reference and the service in turn this many times; each figure is the median of its
                         rounds (this VM's throughput moves by 10-20 % from one run to the next)
  --out bench-results    where the JSON results go
BENCH_DATABASE_URL=postgres://… seeds forum_bench_<size> there instead of an embedded cluster.`,
);
const sizes = args.sizes.split(',').map(Number);
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const connections = Number(args.connections);
/** `--processes 1,2`: the service under WEB_CONCURRENCY=1, then 2 (its CPU is the sum over its processes). */
const processCounts = args.processes.split(',').map(Number);
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('--rounds must be a whole number from 1');
  process.exit(2);
}

/** `--only 'GET /topics|mixed'`: the scenarios whose names hold one of these parts (all without `--only`). */
const selected = (name: string) => !args.only || args.only.split('|').some((part) => name.includes(part));

/** The default data set scales with the topic count: 10 replies, 5 likes and 10 notifications per topic. */
function planFor(topics: number): SeedPlan {
  return { users: 1_000, nodes: 20, topics, replies: topics * 10, likes: topics * 5, notifications: topics * 10 };
}

interface Fixtures {
  token: string;
  topicIds: number[];
  nodeIds: number[];
}

interface Scenario {
  name: string;
  /** Compared with the reference server (bench/reference-server.ts serves these). */
  reference: boolean;
  /**
   * The targets held (each if given): at least `throughput` times the reference's requests/s and a p99 at most
   * `p99` times its p99 (issue 18), a p99 of at most `p99Ms` (issue 14).
   */
  target: { throughput?: number; p99?: number; p99Ms?: number } | null;
  /** For a cached scenario: the scenario of the same read that the cache does not serve (issue 18 asks both). */
  uncached?: string;
  request(fixtures: Fixtures): autocannon.Request;
}

/** The reads: 0.9 of the reference's throughput, p99 within 1.1× of its p99. */
const READ_TARGET = { throughput: 0.9, p99: 1.1 };

const random = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
const auth = (fixtures: Fixtures) => ({ authorization: `Bearer ${fixtures.token}` });

/** Words of the seed's titles and sentences (src/application/maintenance/seed-text.ts), common and rarer. */
const SEARCH_WORDS = ['database', 'caching', 'migration', 'docker', 'benchmarks', '数据库', '缓存', '索引', '部署', '分词'];

const replyBody = () => JSON.stringify({ body: replyText() });

/** The signed-out first pages of every type and node come from the front-page cache: 3× the reference's list. */
const CACHE_TARGET = { throughput: 3 };
const UNCACHED_LIST = 'GET /topics?offset=20 (uncached)';

const SCENARIOS: Scenario[] = [
  // Signed out: the first page comes from the front-page cache.
  {
    name: 'GET /topics',
    reference: true,
    target: CACHE_TARGET,
    uncached: UNCACHED_LIST,
    request: () => ({ method: 'GET', path: '/api/v3/topics' }),
  },
  // The uncached path of the same read: signed out too, the second page, which the cache does not hold.
  {
    name: UNCACHED_LIST,
    reference: true,
    target: null,
    request: () => ({ method: 'GET', path: '/api/v3/topics?offset=20' }),
  },
  // The same list signed in: read from PostgreSQL every time (the uncached path).
  {
    name: 'GET /topics (user, uncached)',
    reference: true,
    target: READ_TARGET,
    request: (f) => ({ method: 'GET', path: '/api/v3/topics', headers: auth(f) }),
  },
  {
    name: 'GET /topics?type=excellent',
    reference: true,
    target: CACHE_TARGET,
    request: () => ({ method: 'GET', path: '/api/v3/topics?type=excellent' }),
  },
  {
    name: 'GET /topics?node_id=…',
    reference: true,
    target: CACHE_TARGET,
    request: (f) => ({
      method: 'GET',
      path: '/api/v3/topics',
      setupRequest: (req) => ({ ...req, path: `/api/v3/topics?node_id=${random(f.nodeIds)}` }),
    }),
  },
  {
    name: 'GET /topics/:id (user)',
    reference: true,
    target: READ_TARGET,
    request: (f) => ({
      method: 'GET',
      path: '/api/v3/topics/1',
      headers: auth(f),
      setupRequest: (req) => ({ ...req, path: `/api/v3/topics/${random(f.topicIds)}` }),
    }),
  },
  {
    name: 'GET /topics/:id/replies (user)',
    reference: true,
    target: READ_TARGET,
    request: (f) => ({
      method: 'GET',
      path: '/api/v3/topics/1/replies',
      headers: auth(f),
      setupRequest: (req) => ({ ...req, path: `/api/v3/topics/${random(f.topicIds)}/replies?limit=20` }),
    }),
  },
  {
    // One word, English or Chinese, from the seed's text: each is in a few percent of the 1.1 million documents.
    name: 'GET /search?q=<one word>',
    reference: true,
    target: { p99Ms: 50 },
    request: () => ({
      method: 'GET',
      path: '/api/v3/search?q=database',
      setupRequest: (req) => ({ ...req, path: `/api/v3/search?q=${encodeURIComponent(random(SEARCH_WORDS))}` }),
    }),
  },
  {
    name: 'GET /notifications/unread_count',
    reference: true,
    target: READ_TARGET,
    request: (f) => ({ method: 'GET', path: '/api/v3/notifications/unread_count', headers: auth(f) }),
  },
  {
    name: 'POST /topics/:id/replies',
    reference: true,
    target: { throughput: 0.5 },
    request: (f) => ({
      method: 'POST',
      path: '/api/v3/topics/1/replies',
      headers: { ...auth(f), 'content-type': 'application/json' },
      body: replyBody(),
      setupRequest: (req) => ({ ...req, path: `/api/v3/topics/${random(f.topicIds)}/replies`, body: replyBody() }),
    }),
  },
];

function targetText(target: NonNullable<Scenario['target']>): string {
  const parts = [
    target.throughput === undefined ? null : `≥ ${target.throughput}`,
    target.p99 === undefined ? null : `p99 ≤ ${target.p99}×`,
    target.p99Ms === undefined ? null : `p99 ≤ ${target.p99Ms} ms`,
  ];
  return parts.filter(Boolean).join(', ');
}

interface Measurement {
  size: number;
  scenario: string;
  server: 'forum' | 'reference';
  /** The service's WEB_CONCURRENCY (1 for the reference). */
  processes: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  rssMb: number;
  /** Server process CPU time (user + system) per request: the cost of our code path, apart from the database's. */
  cpuMicrosPerRequest: number;
  /** With `--rounds`: each round's figures, of which the ones above are the medians. */
  rounds?: { requestsPerSecond: number; p99: number }[];
}

/** Embedded clusters this run started or used: stopped at the end unless something else still uses them. */
const clusters: EmbeddedPostgres[] = [];

/** The live scenario (bench/live.ts): `--only live` runs it alone. */
const LIVE = 'live: 1,000 streams and a webhook under reply load';
/** The mixed workload (bench/mixed.ts): `--only mixed` runs it alone. */
const MIXED = 'mixed: 90 % reads, 10 % writes, 64 connections';
/** One stream per seed user (the default seed has 1,000). */
const STREAMS = 1_000;

async function main(): Promise<void> {
  const measurements: Measurement[] = [];
  const live: { size: number; figures: LiveFigures }[] = [];
  const mixed: { size: number; figures: MixedFigures; corrected: Record<string, number> }[] = [];
  for (const size of sizes) {
    const url = await benchDatabase(size);
    const fixtures = await prepare(url, size);
    const scenarios = SCENARIOS.filter((s) => selected(s.name));
    // Reads first, each server in turn, then writes: what a write scenario adds (thousands of identical replies,
    // the newest documents) would otherwise be under the other server's reads. Search slows behind them.
    const writes = (scenario: Scenario) => scenario.request(fixtures).method !== 'GET';
    const phases = [scenarios.filter((s) => !writes(s)), scenarios.filter(writes)];
    // Each phase alternates the servers `--rounds` times; the live and mixed scenarios run once, in the last round.
    const turns = phases.flatMap((phaseScenarios, phase) =>
      Array.from({ length: rounds }, (_, round) => ({
        phaseScenarios,
        last: phase === phases.length - 1 && round === rounds - 1,
      })),
    );
    for (const { phaseScenarios, last } of turns) {
      const referenceScenarios = phaseScenarios.filter((s) => s.reference);
      if (referenceScenarios.length > 0) {
        const reference = await startServer('dist/bench/reference-server.js', url);
        try {
          for (const scenario of referenceScenarios) {
            measurements.push(await measure(size, scenario, 'reference', 1, reference, fixtures));
          }
        } finally {
          await reference.stop();
        }
      }
      for (const processes of processCounts) {
        const runsLive = last && processes === processCounts[0] && selected(LIVE);
        const runsMixed = last && processes === processCounts[0] && selected(MIXED);
        if (phaseScenarios.length === 0 && !runsLive && !runsMixed) continue;
        const ours = await startServer('dist/src/main.js', url, { WEB_CONCURRENCY: String(processes) });
        try {
          for (const scenario of phaseScenarios) {
            measurements.push(await measure(size, scenario, 'forum', processes, ours, fixtures));
          }
          if (runsLive) {
            const users = await streamUsers(url, STREAMS);
            const figures = await measureLive(
              ours,
              url,
              { topicIds: fixtures.topicIds, users },
              { durationSeconds: duration, connections },
            );
            console.error(`${size} forum     ${LIVE}: ${JSON.stringify(figures)}`);
            live.push({ size, figures });
          }
          if (runsMixed) {
            // Whatever earlier runs left inexact is fixed first: the recount afterwards judges this run alone.
            await recountedCorrections(url);
            const figures = await measureMixed(ours.url, fixtures, { durationSeconds: duration, connections: 64 });
            const corrected = await recountedCorrections(url);
            console.error(`${size} forum     ${MIXED}: ${JSON.stringify({ ...figures, corrected })}`);
            mixed.push({ size, figures, corrected });
          }
        } finally {
          await ours.stop();
        }
      }
    }
  }
  report(medians(measurements), live, mixed);
  for (const cluster of clusters) await cluster.stopUnlessLeased();
}

/** A seeded database per size: BENCH_DATABASE_URL's server, or an embedded PostgreSQL under .data-bench. */
async function benchDatabase(size: number): Promise<string> {
  const name = `forum_bench_${size}`;
  let url: string;
  if (process.env.BENCH_DATABASE_URL) {
    const server = new URL(process.env.BENCH_DATABASE_URL);
    server.pathname = `/${name}`;
    url = server.toString();
    const admin = new URL(process.env.BENCH_DATABASE_URL);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`create database ${pg.escapeIdentifier(name)}`);
    await client.end();
  } else {
    const cluster = new EmbeddedPostgres(process.env.FORUM_DATA_DIR ?? '.data-bench', 'postgres');
    await cluster.ensureRunning();
    clusters.push(cluster);
    url = await cluster.urlFor(name);
  }
  const persistence = await connect(url, { poolMax: 4 });
  const { orm } = persistence;
  try {
    await migrate(orm);
    const [row] = await orm.em.fork().execute<{ n: number }[]>('select count(*)::int as n from topics');
    if (row!.n < size) {
      if (row!.n > 0) throw new Error(`${name} holds ${row!.n} topics, not ${size}: drop it to reseed`);
      console.error(`seeding ${name}: ${JSON.stringify(planFor(size))}`);
      const started = Date.now();
      const useCases = useCasesOf(buildContainer(persistence, loadConfig({ DATABASE_URL: url })));
      // Each step's time, from its first progress report to its last (issue 18: 1,000,000 replies in under 60 s).
      const stepStarted = new Map<string, number>();
      await useCases.seedDatabase.execute(planFor(size), 'seed-password', (step, done, total) => {
        if (!stepStarted.has(step)) stepStarted.set(step, Date.now());
        if (done === total) {
          const seconds = (Date.now() - stepStarted.get(step)!) / 1000;
          console.error(`  ${step}: ${total} in ${seconds.toFixed(1)} s (${Math.round(total / Math.max(seconds, 0.001))}/s)`);
        }
      });
      console.error(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);
    }
    // Earlier runs leave dead rows (every reply updates its topic's row): where autovacuum is off or behind, they
    // would slow each run more than the last. Measure a vacuumed, analyzed database every time.
    await orm.em.fork().execute('vacuum (analyze)');
  } finally {
    await persistence.close();
  }
  return url;
}

/** A seeded user with a token, and samples of visible topics and of nodes to pick from at random. */
async function prepare(url: string, size: number): Promise<Fixtures> {
  const persistence = await connect(url, { poolMax: 2 });
  const { orm } = persistence;
  try {
    const em = orm.em.fork();
    const [user] = await em.execute<{ id: number }[]>("select id from users where login like 'seed%' order by id limit 1");
    const useCases = useCasesOf(buildContainer(persistence, loadConfig({ DATABASE_URL: url })));
    const issued = await useCases.issueToken.execute({ userId: user!.id, clientId: null, expiresIn: 7 * 86_400 });
    const topics = await em.execute<{ id: number }[]>(
      'select t.id from topics t join nodes n on n.id = t.node_id where t.deleted_at is null and not n.hidden order by random() limit 10000',
    );
    const nodes = await em.execute<{ id: number }[]>("select id from nodes where name like 'Seed node%'");
    console.error(`size ${size}: ${topics.length} sample topics, ${nodes.length} nodes`);
    const [written] = await em.execute<{ n: number }[]>('select (count(*) - ?)::int as n from replies', [planFor(size).replies]);
    if (written!.n > 0) {
      console.error(
        `  ${written!.n} replies beyond the seed, from earlier runs' writes: searches walk past them (slower); ` +
          'drop the database to seed it afresh',
      );
    }
    return { token: issued.access_token, topicIds: topics.map((t) => t.id), nodeIds: nodes.map((n) => n.id) };
  } finally {
    await persistence.close();
  }
}

/** Recomputes every counter from the rows and returns how many it had to correct (all zero: they were exact). */
async function recountedCorrections(url: string): Promise<Record<string, number>> {
  const persistence = await connect(url, { poolMax: 2 });
  try {
    const useCases = useCasesOf(buildContainer(persistence, loadConfig({ DATABASE_URL: url })));
    return { ...(await useCases.recount.execute({ batchSize: 5_000 })) };
  } finally {
    await persistence.close();
  }
}

/** Seed users, each with a token: one stream each (the first writes the load, the second is probed). */
async function streamUsers(url: string, count: number): Promise<{ login: string; token: string }[]> {
  const persistence = await connect(url, { poolMax: 2 });
  try {
    const users = await persistence.orm.em
      .fork()
      .execute<{ id: number; login: string }[]>(
        `select id, login from users where login like 'seed%' order by id limit ${count}`,
      );
    const useCases = useCasesOf(buildContainer(persistence, loadConfig({ DATABASE_URL: url })));
    const tokens = [];
    for (const user of users) {
      const issued = await useCases.issueToken.execute({ userId: user.id, clientId: null, expiresIn: 86_400 });
      tokens.push({ login: user.login, token: issued.access_token });
    }
    return tokens;
  } finally {
    await persistence.close();
  }
}

interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startServer(entry: string, databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [entry], {
    // Private addresses allowed: the live scenario's webhook receiver listens on 127.0.0.1.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The load comes from one address and one token: limits high enough never to bite, still counted.
      RATE_LIMIT_PER_MINUTE: '1000000000',
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '1000000000',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function measure(
  size: number,
  scenario: Scenario,
  server: Measurement['server'],
  processes: number,
  target: RunningServer,
  fixtures: Fixtures,
) {
  const options = { url: target.url, connections, requests: [scenario.request(fixtures)] };
  await autocannon({ ...options, duration: warmup });
  const cpuBefore = await treeCpuMicros(target.pid);
  const result = await autocannon({ ...options, duration });
  const cpuUsed = (await treeCpuMicros(target.pid)) - cpuBefore;
  const measurement: Measurement = {
    size,
    scenario: scenario.name,
    server,
    processes,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    rssMb: await treeRssMb(target.pid),
    cpuMicrosPerRequest: Math.round(cpuUsed / Math.max(result.requests.total, 1)),
  };
  console.error(
    `${size} ${server.padEnd(9)} ${scenario.name.padEnd(34)} ${measurement.requestsPerSecond} req/s, p99 ${measurement.p99} ms`,
  );
  return measurement;
}

/** One measurement per size, scenario, server and process count: the median of its rounds (errors summed). */
function medians(measurements: Measurement[]): Measurement[] {
  const groups = new Map<string, Measurement[]>();
  for (const m of measurements) {
    const key = `${m.size}|${m.scenario}|${m.server}|${m.processes}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.values()].map((group) => {
    const of = (field: 'requestsPerSecond' | 'p50' | 'p99' | 'rssMb' | 'cpuMicrosPerRequest') =>
      median(group.map((m) => m[field]));
    return {
      ...group[0]!,
      requestsPerSecond: of('requestsPerSecond'),
      p50: of('p50'),
      p99: of('p99'),
      rssMb: of('rssMb'),
      cpuMicrosPerRequest: of('cpuMicrosPerRequest'),
      errors: group.reduce((sum, m) => sum + m.errors, 0),
      rounds: group.map(({ requestsPerSecond, p99 }) => ({ requestsPerSecond, p99 })),
    };
  });
}

function report(
  measurements: Measurement[],
  live: { size: number; figures: LiveFigures }[],
  mixed: { size: number; figures: MixedFigures; corrected: Record<string, number> }[],
): void {
  const table = new Table({
    head: [
      'topics',
      'scenario',
      'procs',
      'req/s',
      'p50 ms',
      'p99 ms',
      'errors',
      'RSS MB',
      'CPU µs/req',
      'req/s per core',
      'ref req/s',
      'ref p99',
      'ref CPU µs/req',
      'req/s ratio',
      'p99 ratio',
      'target',
    ],
    style: { head: [], border: [] },
  });
  const rows: unknown[] = [];
  for (const ours of measurements.filter((m) => m.server === 'forum')) {
    const ref = measurements.find((m) => m.server === 'reference' && m.size === ours.size && m.scenario === ours.scenario);
    const scenario = SCENARIOS.find((s) => s.name === ours.scenario)!;
    const throughputRatio = ref ? ours.requestsPerSecond / ref.requestsPerSecond : null;
    const p99Ratio = ref ? ours.p99 / Math.max(ref.p99, 1) : null;
    const target = scenario.target;
    const met =
      target && ours.processes === processCounts[0] && throughputRatio !== null && p99Ratio !== null
        ? (target.throughput === undefined || throughputRatio >= target.throughput) &&
          (target.p99 === undefined || p99Ratio <= target.p99) &&
          (target.p99Ms === undefined || ours.p99 <= target.p99Ms)
        : null;
    rows.push({ ...ours, reference: ref ?? null, throughputRatio, p99Ratio, targetMet: met });
    table.push([
      ours.size,
      ours.scenario,
      ours.processes,
      ours.requestsPerSecond,
      ours.p50,
      ours.p99,
      ours.errors,
      ours.rssMb,
      ours.cpuMicrosPerRequest,
      // What one core of the service's own CPU serves (the database's CPU is apart): capacity, not a speed-up.
      Math.round(1_000_000 / Math.max(ours.cpuMicrosPerRequest, 1)),
      ref?.requestsPerSecond ?? '',
      ref?.p99 ?? '',
      ref?.cpuMicrosPerRequest ?? '',
      throughputRatio?.toFixed(2) ?? '',
      p99Ratio?.toFixed(2) ?? '',
      met === null ? (ours.errors === 0 ? 'no errors' : 'ERRORS') : `${met ? 'met' : 'MISSED'} (${targetText(target!)})`,
    ]);
  }
  console.log(table.toString());

  const cache: unknown[] = [];
  const forumRows = measurements.filter((m) => m.server === 'forum' && m.processes === processCounts[0]);
  for (const cached of forumRows) {
    const uncachedName = SCENARIOS.find((s) => s.name === cached.scenario)?.uncached;
    const uncached = forumRows.find((m) => m.size === cached.size && m.scenario === uncachedName);
    if (!uncached) continue;
    const ratio = cached.requestsPerSecond / uncached.requestsPerSecond;
    cache.push({ size: cached.size, cached: cached.scenario, uncached: uncached.scenario, ratio });
    console.log(
      `front-page cache at ${cached.size}: ${cached.scenario} ${cached.requestsPerSecond} req/s, ${uncached.scenario} ` +
        `${uncached.requestsPerSecond} req/s: ${ratio.toFixed(2)}× the uncached path`,
    );
  }

  const scaling: unknown[] = [];
  if (sizes.length > 1) {
    const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
    const scale = new Table({
      head: ['scenario', `req/s at ${small}`, `req/s at ${large}`, 'change', 'target (≥ -15 %)'],
      style: { head: [], border: [] },
    });
    for (const scenario of new Set(measurements.map((m) => m.scenario))) {
      const at = (size: number) =>
        measurements.find(
          (m) => m.server === 'forum' && m.processes === processCounts[0] && m.size === size && m.scenario === scenario,
        );
      const [a, b] = [at(small), at(large)];
      if (!a || !b) continue;
      const change = b.requestsPerSecond / a.requestsPerSecond - 1;
      scaling.push({ scenario, small: a.requestsPerSecond, large: b.requestsPerSecond, change });
      scale.push([
        scenario,
        a.requestsPerSecond,
        b.requestsPerSecond,
        `${(change * 100).toFixed(1)} %`,
        change >= -0.15 ? 'met' : 'MISSED',
      ]);
    }
    console.log(scale.toString());
  }

  if (live.length > 0) {
    const liveTable = new Table({
      head: [
        'topics',
        'streams',
        'RSS KB/stream',
        'idle CPU ms/10 s',
        'reply load',
        'replies/s',
        'reply p99 ms',
        'stream delay p50/p99/max ms',
        'webhook delay p50/p99/max ms',
        'probes',
      ],
      style: { head: [], border: [] },
    });
    const span = (p: { p50: number; p99: number; max: number } | null) => (p ? `${p.p50} / ${p.p99} / ${p.max}` : '');
    for (const { size, figures } of live) {
      for (const [i, phase] of figures.phases.entries()) {
        liveTable.push([
          i === 0 ? size : '',
          i === 0 ? figures.streams : '',
          i === 0 ? figures.rssKbPerStream : '',
          i === 0 ? figures.idleCpuMsPer10s : '',
          phase.name,
          phase.writesPerSecond,
          phase.writeP99,
          span(phase.streamDelayMs),
          span(phase.webhookDelayMs),
          phase.probes,
        ]);
      }
    }
    console.log(`${LIVE} (delays from the write's response to the event)`);
    console.log(liveTable.toString());
  }

  for (const { size, figures, corrected } of mixed) {
    const mixedTable = new Table({
      head: ['kind', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      style: { head: [], border: [] },
    });
    for (const kind of figures.kinds) {
      mixedTable.push([
        `${kind.write ? 'write' : 'read'}: ${kind.kind}`,
        kind.requestsPerSecond,
        kind.p50,
        kind.p99,
        kind.errors,
      ]);
    }
    const wrong = Object.values(corrected).reduce((sum, count) => sum + count, 0);
    console.log(`${MIXED}, ${size} topics: ${figures.requestsPerSecond} req/s in all`);
    console.log(mixedTable.toString());
    console.log(
      wrong === 0 ? 'counters exact afterwards (a recount corrected nothing)' : `COUNTERS WRONG: ${JSON.stringify(corrected)}`,
    );
  }

  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  };
  const file = path.join(args.out, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  void mkdir(args.out, { recursive: true })
    .then(() =>
      writeFile(
        file,
        JSON.stringify(
          {
            date: new Date().toISOString(),
            machine,
            settings: { sizes, duration, warmup, connections, rounds },
            rows,
            cache,
            scaling,
            live,
            mixed,
          },
          null,
          2,
        ),
      ),
    )
    .then(() => console.error(`results written to ${file}`));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
