/**
 * `npm run bench`: seeds a database (once; kept under .data-bench), starts this service and the minimal
 * reference server on it, loads both with autocannon scenario by scenario, and prints each figure with its
 * ratio to the reference. Results also go to bench-results/<date>.json.
 *
 *   npm run bench -- --sizes 10000,100000 --duration 10 --connections 32
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { RequestContext } from '@mikro-orm/core';
import pg from 'pg';
import sharp from 'sharp';
import { loadConfig } from '../src/config.js';
import { buildContainer } from '../src/container.js';
import { Recount } from '../src/application/maintenance/maintenance.js';
import { SeedDatabase } from '../src/application/maintenance/seed.js';
import { IssueToken } from '../src/application/tokens/access-tokens.js';
import { OpenWebSession } from '../src/application/oauth/web-sessions.js';
import { sessionCsrf } from '../src/adapters/web/browser.js';
import { SESSION_COOKIE } from '../src/adapters/presentation/session-cookie.js';
import { EmbeddedPostgres } from '../src/adapters/persistence/database/embedded-postgres.js';
import { connect, migrate } from '../src/adapters/persistence/database/orm.js';
import { readArgs } from './args.js';
import { measureLive, type LiveFigures } from './live.js';
import { measureMixed, type MixedFigures } from './mixed.js';
import type { SeedPlan } from '../src/application/maintenance/seed.js';
import { replyText } from './reply-text.js';
import { type Measurement, medians, report, type ScenarioTarget } from './report.js';
import { measureSignUps, SIGN_UP_SERVER_ENV, type SignUpFigures } from './sign-ups.js';
import { REFERENCE_ENTRY, type RunningServer, SERVICE_ENTRY, startServer } from './servers.js';

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
  /** The same user's browser session (contract §16b): its cookie, and the token its forms carry. */
  session: { cookie: string; csrf: string };
  topicIds: number[];
  nodeIds: number[];
}

interface Scenario {
  name: string;
  /** Compared with the reference server (bench/reference-server.ts serves these). */
  reference: boolean;
  /** The targets it holds (report.ts). */
  target: ScenarioTarget | null;
  /** For a cached scenario: the scenario of the same read that the cache does not serve (issue 18 asks both). */
  uncached?: string;
  /** A form post: its success is a redirect (303), not an error. */
  redirects?: boolean;
  /** Sets the database up for it, before each server is loaded with it. */
  before?: (url: string) => Promise<void>;
  request(fixtures: Fixtures): autocannon.Request;
  /** What the reference is asked instead, where it has no such page (the forum's pages: the reference's list). */
  referenceRequest?(fixtures: Fixtures): autocannon.Request;
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
  // The forum's pages (contract §21a), signed out: the first pages of / and of a node come from the page cache, as the
  // API's first pages do, and are held to the same 3× the reference's list.
  {
    name: 'GET / (page)',
    reference: true,
    target: CACHE_TARGET,
    request: () => ({ method: 'GET', path: '/' }),
    referenceRequest: () => ({ method: 'GET', path: '/api/v3/topics' }),
  },
  {
    name: 'GET /topics/node… (page)',
    reference: true,
    target: CACHE_TARGET,
    request: (f) => ({
      method: 'GET',
      path: '/topics',
      setupRequest: (req) => ({ ...req, path: `/topics/node${random(f.nodeIds)}` }),
    }),
    referenceRequest: (f) => ({
      method: 'GET',
      path: '/api/v3/topics',
      setupRequest: (req) => ({ ...req, path: `/api/v3/topics?node_id=${random(f.nodeIds)}` }),
    }),
  },
  // A topic page, signed out (its replies, up to 100, on it): not cached; its budget is 1.5× the server CPU of the
  // API's show and reply list together (docs/performance.md).
  {
    name: 'GET /topics/:id (page)',
    reference: false,
    target: null,
    request: (f) => ({
      method: 'GET',
      path: '/topics/1',
      setupRequest: (req) => ({ ...req, path: `/topics/${random(f.topicIds)}` }),
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
    // Every notified user has notification mail on (the default): each reply queues its mail (issue 33).
    before: (url) => notificationMail(url, 'mentions_and_replies'),
    request: replyRequest,
  },
  {
    // The reply form of a topic page (contract §21b): the API's reply create, then a redirect to the reply's floor.
    // Its budget is 1.3× the server CPU of POST /topics/:id/replies (docs/performance.md).
    name: 'POST /topics/:id/replies (page)',
    reference: false,
    target: null,
    redirects: true,
    before: (url) => notificationMail(url, 'mentions_and_replies'),
    request: (f) => ({
      method: 'POST',
      path: '/topics/1/replies',
      headers: { cookie: f.session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (req) => ({
        ...req,
        path: `/topics/${random(f.topicIds)}/replies`,
        body: new URLSearchParams({ csrf_token: f.session.csrf, body: replyText() }).toString(),
      }),
    }),
  },
  {
    // A phone-sized photo (about 1 MB of JPEG, 1,700 × 1,250), decoded, cleaned and encoded again, stored, recorded.
    // No reference: the reference server has no images to clean.
    name: 'POST /photos (1 MB JPEG)',
    reference: false,
    target: null,
    before: async () => {
      photos ??= await photoBodies();
    },
    request: photoRequest,
  },
  {
    name: 'POST /topics/:id/replies (no mail)',
    reference: false,
    target: null,
    // The same with notification mail off for everyone: the difference is what queuing the mail costs.
    before: (url) => notificationMail(url, 'none'),
    request: replyRequest,
  },
];

/**
 * Multipart bodies of distinct photos of noise (so each is a picture of its own, not one stored already), made once,
 * when the scenario first runs: each request takes one at random.
 */
async function photoBodies(): Promise<{ boundary: string; bodies: Buffer[] }> {
  const boundary = 'forum-bench-boundary';
  const bodies: Buffer[] = [];
  for (let i = 0; i < 12; i++) {
    const photo = await sharp({
      create: {
        width: 1_700,
        height: 1_250,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .jpeg({ quality: 88 })
      .toBuffer();
    bodies.push(
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="IMG_${i}.jpg"\r\n` +
            'Content-Type: image/jpeg\r\n\r\n',
        ),
        photo,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    );
  }
  return { boundary, bodies };
}

function photoRequest(f: Fixtures): autocannon.Request {
  return {
    method: 'POST',
    path: '/api/v3/photos',
    headers: auth(f),
    setupRequest: (req) => {
      const { boundary, bodies } = photos!;
      return {
        ...req,
        headers: { ...req.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: random(bodies),
      };
    },
  };
}

/** The photo bodies, once made. */
let photos: Awaited<ReturnType<typeof photoBodies>> | null = null;

function replyRequest(f: Fixtures): autocannon.Request {
  return {
    method: 'POST',
    path: '/api/v3/topics/1/replies',
    headers: { ...auth(f), 'content-type': 'application/json' },
    body: replyBody(),
    setupRequest: (req) => ({ ...req, path: `/api/v3/topics/${random(f.topicIds)}/replies`, body: replyBody() }),
  };
}

/** Every user's notification mail preference set to `preference`, and no notification mail left queued by an earlier run. */
async function notificationMail(url: string, preference: 'mentions_and_replies' | 'none'): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('update users set email_notifications = $1 where email_notifications <> $1', [preference]);
    await client.query('delete from notification_mail_queue');
  } finally {
    await client.end();
  }
}

/** Embedded clusters this run started or used: stopped at the end unless something else still uses them. */
const clusters: EmbeddedPostgres[] = [];

/** The live scenario (bench/live.ts): `--only live` runs it alone. */
const LIVE = 'live: 1,000 streams and a webhook under reply load';
/** The mixed workload (bench/mixed.ts): `--only mixed` runs it alone. */
const MIXED = 'mixed: 90 % reads, 10 % writes, 64 connections';
/** Sign-ups beside reads (bench/sign-ups.ts): `--only sign-ups` runs it alone. */
const SIGN_UPS = 'sign-ups: read p99 alone and beside 20 sign-ups a second';
/** One stream per seed user (the default seed has 1,000). */
const STREAMS = 1_000;
/** Private addresses allowed: the live scenario's webhook receiver listens on 127.0.0.1. */
const PRIVATE_WEBHOOKS = { WEBHOOKS_ALLOW_PRIVATE: 'true' };

async function main(): Promise<void> {
  const measurements: Measurement[] = [];
  const live: { size: number; figures: LiveFigures }[] = [];
  const mixed: { size: number; figures: MixedFigures; corrected: Record<string, number> }[] = [];
  const signUps: { size: number; figures: SignUpFigures }[] = [];
  for (const size of sizes) {
    const url = await benchDatabase(size);
    const fixtures = await prepare(url, size);
    const scenarios = SCENARIOS.filter((s) => selected(s.name));
    // Reads first, each server in turn, then writes: what a write scenario adds (thousands of identical replies,
    // the newest documents) would otherwise be under the other server's reads. Search slows behind them.
    const writes = (scenario: Scenario) => scenario.request(fixtures).method !== 'GET';
    const phases = [scenarios.filter((s) => !writes(s)), scenarios.filter(writes)];
    // Each phase alternates the servers `--rounds` times; the live and mixed scenarios run once, in the last round.
    // Every other round takes the scenarios in the opposite order: what one leaves behind (autovacuum after
    // thousands of writes, a checkpoint) falls on each of its neighbours in turn, not always on the same one.
    const turns = phases.flatMap((phaseScenarios, phase) =>
      Array.from({ length: rounds }, (_, round) => ({
        phaseScenarios: round % 2 === 0 ? phaseScenarios : [...phaseScenarios].reverse(),
        last: phase === phases.length - 1 && round === rounds - 1,
      })),
    );
    for (const { phaseScenarios, last } of turns) {
      const referenceScenarios = phaseScenarios.filter((s) => s.reference);
      if (referenceScenarios.length > 0) {
        const reference = await startServer(REFERENCE_ENTRY, url, { env: PRIVATE_WEBHOOKS });
        try {
          for (const scenario of referenceScenarios) {
            await scenario.before?.(url);
            measurements.push(await measure(size, scenario, 'reference', 1, reference, fixtures));
          }
        } finally {
          await reference.stop();
        }
      }
      for (const processes of processCounts) {
        const runsLive = last && processes === processCounts[0] && selected(LIVE);
        const runsMixed = last && processes === processCounts[0] && selected(MIXED);
        const runsSignUps = last && processes === processCounts[0] && selected(SIGN_UPS);
        if (phaseScenarios.length === 0 && !runsLive && !runsMixed && !runsSignUps) continue;
        const ours = await startServer(SERVICE_ENTRY, url, {
          env: { ...PRIVATE_WEBHOOKS, ...SIGN_UP_SERVER_ENV, WEB_CONCURRENCY: String(processes) },
        });
        try {
          for (const scenario of phaseScenarios) {
            await scenario.before?.(url);
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
          if (runsSignUps) {
            const figures = await measureSignUps(ours.url, fixtures, {
              durationSeconds: duration,
              connections,
              signUpsPerSecond: 20,
            });
            console.error(`${size} forum     ${SIGN_UPS}: ${JSON.stringify(figures)}`);
            signUps.push({ size, figures });
          }
        } finally {
          await ours.stop();
        }
      }
    }
  }
  report(medians(measurements), live, mixed, signUps, {
    scenarios: SCENARIOS,
    sizes,
    processCounts,
    settings: { sizes, duration, warmup, connections, rounds },
    out: args.out,
    names: { live: LIVE, mixed: MIXED, signUps: SIGN_UPS },
  });
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
      const seedDatabase = buildContainer(persistence, loadConfig({ DATABASE_URL: url })).get(SeedDatabase);
      // Each step's time, from its first progress report to its last (issue 18: 1,000,000 replies in under 60 s).
      const stepStarted = new Map<string, number>();
      await seedDatabase.execute(planFor(size), 'seed-password', (step, done, total) => {
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
    const container = buildContainer(persistence, loadConfig({ DATABASE_URL: url }));
    const issued = await container.get(IssueToken).execute({ userId: user!.id, clientId: null, expiresIn: 7 * 86_400 });
    // Use cases that load entities run in a persistence context of their own, as a request's do.
    const opened = await RequestContext.create(orm.em, () => container.get(OpenWebSession).execute(user!.id, true));
    if (!opened) throw new Error('the bench user may not sign in');
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
    return {
      token: issued.access_token,
      session: { cookie: `${SESSION_COOKIE}=${opened.session}`, csrf: sessionCsrf(opened.session) },
      topicIds: topics.map((t) => t.id),
      nodeIds: nodes.map((n) => n.id),
    };
  } finally {
    await persistence.close();
  }
}

/** Recomputes every counter from the rows and returns how many it had to correct (all zero: they were exact). */
async function recountedCorrections(url: string): Promise<Record<string, number>> {
  const persistence = await connect(url, { poolMax: 2 });
  try {
    const recount = buildContainer(persistence, loadConfig({ DATABASE_URL: url })).get(Recount);
    return { ...(await recount.execute({ batchSize: 5_000 })) };
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
    const issueToken = buildContainer(persistence, loadConfig({ DATABASE_URL: url })).get(IssueToken);
    const tokens = [];
    for (const user of users) {
      const issued = await issueToken.execute({ userId: user.id, clientId: null, expiresIn: 86_400 });
      tokens.push({ login: user.login, token: issued.access_token });
    }
    return tokens;
  } finally {
    await persistence.close();
  }
}

/** How many answers were 303 (autocannon counts them with the errors, as not 2xx). */
const redirected = (result: autocannon.Result) =>
  (result.statusCodeStats as Record<string, { count: number }> | undefined)?.['303']?.count;

async function measure(
  size: number,
  scenario: Scenario,
  server: Measurement['server'],
  processes: number,
  target: RunningServer,
  fixtures: Fixtures,
) {
  const request =
    server === 'reference' && scenario.referenceRequest ? scenario.referenceRequest(fixtures) : scenario.request(fixtures);
  const options = { url: target.url, connections, requests: [request] };
  await autocannon({ ...options, duration: warmup });
  const cpuBefore = await target.cpuMicros();
  const result = await autocannon({ ...options, duration });
  const cpuUsed = (await target.cpuMicros()) - cpuBefore;
  const measurement: Measurement = {
    size,
    scenario: scenario.name,
    server,
    processes,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx - (scenario.redirects ? (redirected(result) ?? 0) : 0),
    rssMb: await target.rssMb(),
    cpuMicrosPerRequest: Math.round(cpuUsed / Math.max(result.requests.total, 1)),
  };
  console.error(
    `${size} ${server.padEnd(9)} ${scenario.name.padEnd(34)} ${measurement.requestsPerSecond} req/s, p99 ${measurement.p99} ms`,
  );
  return measurement;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
