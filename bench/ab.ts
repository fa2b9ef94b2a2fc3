/**
 * `npm run bench:ab -- --a <entry.js> --b <entry.js> --path <path> [--header 'Name: value']…`: the cost of a
 * change, measured: two builds of the service (say, the commit before a change in a git worktree, and this one)
 * on one database, loaded in turns (A, B, A, B…) so that drift in the machine falls on both alike. Prints each
 * round, the median requests/s of each, and B's ratio to A.
 *
 *   git worktree add /tmp/before HEAD~3 && (cd /tmp/before && npm ci)
 *   BENCH_DATABASE_URL=postgres://…/forum_bench_10000 npm run bench:ab -- \
 *     --a /tmp/before/dist/src/main.js --b dist/src/main.js --path '/api/v3/topics?limit=1' --header 'Origin: https://app.example'
 *
 * A write: `--method POST --path '/api/v3/topics/{id}/replies' --id-max 100000 --body '{"body":"…"}'` with a token header.
 *
 * Two builds whose schemas differ (B's migrations changed what A's code relies on) each get a copy of the data:
 * `--a-database postgres://…/forum_bench_a --b-database postgres://…/forum_bench_b` (e.g. `create database
 * forum_bench_b template forum_bench_a`, then `alter database forum_bench_b set jit = off`: a copy does not take its
 * template's settings, and the migration that turned JIT off has run already); each server migrates its own.
 */
import autocannon from 'autocannon';
import { readArgs } from './args.js';
import { type AbFigures, printAbRound, printAbSummary } from './report.js';
import { type RunningServer, startServer } from './servers.js';

const USAGE =
  'usage: BENCH_DATABASE_URL=… npm run bench:ab -- --a <entry.js> --b <entry.js> [--path p]… [--header h]… ' +
  '[--method POST --body json --id-max n] [--env NAME=value]… [--rounds 3] [--duration 10] [--connections 32] [--server-cpus 1] ' +
  '[--a-database url --b-database url]';
const args = readArgs(
  {
    a: { type: 'string' },
    b: { type: 'string' },
    /** Given more than once, each request takes one of them at random (say, searches for different words). */
    path: { type: 'string', multiple: true, default: ['/api/v3/topics'] },
    /** A request other than GET: its method, and a JSON body. */
    method: { type: 'string', default: 'GET' },
    body: { type: 'string' },
    /** `{id}` in the path becomes a random id from 1 to this, per request (say, a topic to reply to). */
    'id-max': { type: 'string', default: '1000' },
    header: { type: 'string', multiple: true, default: [] },
    env: { type: 'string', multiple: true, default: [] },
    /** Each build on a database of its own (the same data), when their schemas differ; BENCH_DATABASE_URL otherwise. */
    'a-database': { type: 'string' },
    'b-database': { type: 'string' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    /** Pin both servers to these CPUs (taskset), so that the load generator and they do not trade places. */
    'server-cpus': { type: 'string' },
  },
  USAGE,
);
if (!args.a || !args.b || !((args['a-database'] && args['b-database']) || process.env.BENCH_DATABASE_URL)) {
  console.error(USAGE);
  process.exit(2);
}
const pick = (paths: string[]) => paths[Math.floor(Math.random() * paths.length)]!;
const headers = Object.fromEntries(
  args.header.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]),
);
const extraEnv = Object.fromEntries(args.env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));

/** One load run: requests/s, p99, errors, bytes per response, and the server's CPU time per request. */
async function load(server: RunningServer, duration: number): Promise<AbFigures> {
  const cpuBefore = await server.cpuMicros();
  const idMax = Number(args['id-max']);
  const request: autocannon.Request = {
    method: args.method as autocannon.Request['method'],
    path: args.path[0]!,
    ...(args.body === undefined ? {} : { body: args.body, headers: { ...headers, 'content-type': 'application/json' } }),
    setupRequest: (req) => ({ ...req, path: pick(args.path).replace('{id}', String(1 + Math.floor(Math.random() * idMax))) }),
  };
  const result = await autocannon({
    url: server.url,
    headers,
    connections: Number(args.connections),
    duration,
    requests: [request],
  });
  const cpu = (await server.cpuMicros()) - cpuBefore;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    bytes: Math.round(result.throughput.average / Math.max(result.requests.average, 1)),
    cpuMicrosPerRequest: Math.round(cpu / Math.max(result.requests.total, 1)),
  };
}

const start = (entry: string, database: string | undefined) =>
  startServer(entry, database ?? process.env.BENCH_DATABASE_URL!, { env: extraEnv, cpus: args['server-cpus'] });
const servers = { a: await start(args.a, args['a-database']), b: await start(args.b, args['b-database']) };
try {
  for (const server of Object.values(servers)) await load(server, 2); // warm-up
  const rounds: Record<'a' | 'b', AbFigures[]> = { a: [], b: [] };
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const name of ['a', 'b'] as const) {
      const measured = await load(servers[name], Number(args.duration));
      rounds[name].push(measured);
      printAbRound(round, name, measured);
    }
  }
  printAbSummary(rounds);
} finally {
  await Promise.all(Object.values(servers).map((server) => server.stop()));
}
