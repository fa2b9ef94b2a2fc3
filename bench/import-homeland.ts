/**
 * `forumctl import homeland` timed (issue 36, contract §20): fills a homeland database of the given size
 * (test/support/homeland/volume.ts), imports it into a fresh database of ours, then imports it again (the idempotent
 * re-run: nothing changed, so nothing should be copied), printing each run's wall time, its JSON report, its
 * phases' times and rows per second. Both databases are dropped at the end (unless --keep).
 *
 *   npm run build:test && node dist/bench/import-homeland.js [--topics 100000 --replies 1000000]
 *   node dist/bench/import-homeland.js --fill-only --topics 10000 --replies 100000
 *
 * The PostgreSQL server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect, migrate } from '../src/adapters/persistence/database/orm.js';
import type { HomelandImportReport } from '../src/application/imports/ports.js';
import { createHomelandDatabase } from '../test/support/homeland/schema.js';
import { fillHomelandVolume } from '../test/support/homeland/volume.js';
import { readArgs } from './args.js';

const args = readArgs(
  {
    topics: { type: 'string', default: '100000' },
    replies: { type: 'string' },
    users: { type: 'string' },
    nodes: { type: 'string', default: '50' },
    likes: { type: 'string' },
    notifications: { type: 'string' },
    'fill-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
  `usage: npm run build:test && node dist/bench/import-homeland.js [options]
  --topics 100000        topics in the homeland database
  --replies 1000000      replies (default: 10 per topic)
  --users 10000          people (default: 1 per 10 topics, at least 100)
  --nodes 50             nodes
  --likes, --notifications   (default: 5 and 10 per topic)
  --fill-only            fill the homeland database, report how long it took, and stop (no import)
  --keep                 leave the databases (their URLs are printed) instead of dropping them
The server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres.`,
);

const count = (name: string, raw: string | undefined, fallback: number): number => {
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a whole number`);
    process.exit(2);
  }
  return value;
};
const topics = count('topics', args.topics, 100_000);
const plan = {
  topics,
  replies: count('replies', args.replies, topics * 10),
  users: count('users', args.users, Math.max(100, Math.floor(topics / 10))),
  nodes: count('nodes', args.nodes, 50),
  likes: count('likes', args.likes, topics * 5),
  notifications: count('notifications', args.notifications, topics * 10),
};

const serverUrl =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function onServer(statement: string): Promise<void> {
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function databaseSize(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>('select pg_size_pretty(pg_database_size(current_database())) as size');
    return rows[0]!.size;
  } finally {
    await client.end();
  }
}

/** An empty database of ours, migrated (only the built-ins: what the first import needs). */
async function createTarget(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `forum_bench_import_${process.pid}_${randomBytes(3).toString('hex')}`;
  await onServer(`create database ${pg.escapeIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const target = {
    url: url.toString(),
    drop: () => onServer(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`),
  };
  const persistence = await connect(target.url, { poolMax: 2 });
  try {
    await migrate(persistence.orm);
  } finally {
    await persistence.close();
  }
  return target;
}

interface Run {
  code: number | null;
  ms: number;
  stdout: string;
  report: unknown;
}

/** `forumctl import homeland --from <homeland> --json` against `target`: its exit code, wall time and report. */
function importOnce(homelandUrl: string, targetUrl: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin', 'forumctl.js'), 'import', 'homeland', '--from', homelandUrl, '--json'],
      { cwd: root, env: { ...process.env, DATABASE_URL: targetUrl }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, stdout, report: parseReport(stdout) }));
  });
}

/** The JSON report: the whole output, or else its last line that parses. */
function parseReport(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    for (const line of stdout.trim().split('\n').reverse()) {
      try {
        return JSON.parse(line);
      } catch {
        // not this line
      }
    }
    return null;
  }
}

/** A run's report, its phases' times, and rows per second: all rows read, and each table's over the run's wall time. */
function printRun(label: string, run: Run): void {
  console.log(`\n${label}: exit ${run.code}, ${seconds(run.ms)} wall`);
  if (run.report === null) {
    console.log(run.stdout.trim() === '' ? '(no output on stdout)' : `output (not JSON):\n${run.stdout.trim()}`);
    return;
  }
  const report = run.report as HomelandImportReport;
  console.log(JSON.stringify(report, null, 2));
  const phases = Object.entries(report.seconds).map(([phase, s]) => `${phase} ${s.toFixed(1)} s`);
  console.log(`phases: ${phases.join(', ')}`);
  const total = report.tables.reduce((sum, { read }) => sum + read, 0);
  const rate = (rows: number) => Math.round(rows / (Math.max(run.ms, 1) / 1000));
  console.log(`rows/s over the run's ${seconds(run.ms)}:`);
  console.log(`  ${'all tables'.padEnd(24)} ${String(total).padStart(10)} read  ${String(rate(total)).padStart(10)}/s`);
  for (const { table, read } of report.tables) {
    console.log(`  ${table.padEnd(24)} ${String(read).padStart(10)} read  ${String(rate(read)).padStart(10)}/s`);
  }
}

const homeland = await createHomelandDatabase(serverUrl);
let target: { url: string; drop(): Promise<void> } | null = null;
let failed = false;
try {
  console.log(`homeland database: ${args.keep ? homeland.url : new URL(homeland.url).pathname.slice(1)}`);
  console.log(`filling: ${JSON.stringify(plan)}`);
  const fillStarted = performance.now();
  const counts = await fillHomelandVolume(homeland.url, plan);
  const fillMs = performance.now() - fillStarted;
  console.log(`filled in ${seconds(fillMs)} (${await databaseSize(homeland.url)}): ${JSON.stringify(counts)}`);

  if (!args['fill-only']) {
    target = await createTarget();
    console.log(`target database: ${args.keep ? target.url : new URL(target.url).pathname.slice(1)} (migrated)`);
    const first = await importOnce(homeland.url, target.url);
    printRun('first import', first);
    if (first.code !== 0) {
      failed = true;
    } else {
      const second = await importOnce(homeland.url, target.url);
      printRun('second import (nothing changed)', second);
      failed = second.code !== 0;
      console.log(`\nsummary: fill ${seconds(fillMs)}, first import ${seconds(first.ms)}, re-run ${seconds(second.ms)}`);
    }
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  if (args.keep) {
    console.log(`kept: ${homeland.url}${target ? ` and ${target.url}` : ''}`);
  } else {
    await homeland.drop();
    await target?.drop();
  }
}
process.exit(failed ? 1 : 0);
