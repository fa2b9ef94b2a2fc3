/**
 * What `npm run bench` and `npm run bench:ab` print: the table of each scenario's figures with their ratios to
 * the reference, the front-page cache against the uncached path, sizes against each other, the live and mixed
 * scenarios, and the results as JSON under `--out` (run.ts); the medians of A and B and B's ratio to A (ab.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Table from 'cli-table3';
import type { LiveFigures } from './live.js';
import type { MixedFigures } from './mixed.js';
import type { SignUpFigures } from './sign-ups.js';
import { median } from './median.js';

/**
 * The targets a scenario holds (each if given): at least `throughput` times the reference's requests/s and a p99
 * at most `p99` times its p99 (issue 18), a p99 of at most `p99Ms` (issue 14).
 */
export interface ScenarioTarget {
  throughput?: number;
  p99?: number;
  p99Ms?: number;
}

/** What the report needs of a scenario: its name, its target, and the scenario of its uncached read. */
export interface ReportedScenario {
  name: string;
  target: ScenarioTarget | null;
  uncached?: string;
}

export interface ReportContext {
  scenarios: readonly ReportedScenario[];
  sizes: number[];
  /** `--processes`: the service's WEB_CONCURRENCY, each in turn. */
  processCounts: number[];
  /** The run's settings, as the JSON results record them. */
  settings: Record<string, unknown>;
  /** Where the JSON results go. */
  out: string;
  /** The live and mixed scenarios' names. */
  names: { live: string; mixed: string; signUps: string };
}

function targetText(target: ScenarioTarget): string {
  const parts = [
    target.throughput === undefined ? null : `≥ ${target.throughput}`,
    target.p99 === undefined ? null : `p99 ≤ ${target.p99}×`,
    target.p99Ms === undefined ? null : `p99 ≤ ${target.p99Ms} ms`,
  ];
  return parts.filter(Boolean).join(', ');
}

export interface Measurement {
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

/** One measurement per size, scenario, server and process count: the median of its rounds (errors summed). */
export function medians(measurements: Measurement[]): Measurement[] {
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

/** Prints the tables and ratios of a run, and writes its results as JSON under `out` (not awaited: the path is printed once written). */
export function report(
  measurements: Measurement[],
  live: { size: number; figures: LiveFigures }[],
  mixed: { size: number; figures: MixedFigures; corrected: Record<string, number> }[],
  signUps: { size: number; figures: SignUpFigures }[],
  context: ReportContext,
): void {
  const { scenarios, sizes, out, names } = context;
  /** The targets are judged, and the cache and sizes compared, at the first process count. */
  const processes = context.processCounts[0];
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
    const scenario = scenarios.find((s) => s.name === ours.scenario)!;
    const throughputRatio = ref ? ours.requestsPerSecond / ref.requestsPerSecond : null;
    const p99Ratio = ref ? ours.p99 / Math.max(ref.p99, 1) : null;
    const target = scenario.target;
    const met =
      target && ours.processes === processes && throughputRatio !== null && p99Ratio !== null
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
  const forumRows = measurements.filter((m) => m.server === 'forum' && m.processes === processes);
  for (const cached of forumRows) {
    const uncachedName = scenarios.find((s) => s.name === cached.scenario)?.uncached;
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
        measurements.find((m) => m.server === 'forum' && m.processes === processes && m.size === size && m.scenario === scenario);
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
    console.log(`${names.live} (delays from the write's response to the event)`);
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
    console.log(`${names.mixed}, ${size} topics: ${figures.requestsPerSecond} req/s in all`);
    console.log(mixedTable.toString());
    console.log(
      wrong === 0 ? 'counters exact afterwards (a recount corrected nothing)' : `COUNTERS WRONG: ${JSON.stringify(corrected)}`,
    );
  }

  for (const { size, figures } of signUps) {
    const table = new Table({
      head: ['reads (GET /topics/:id)', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      style: { head: [], border: [] },
    });
    table.push(['alone', figures.alone.requestsPerSecond, figures.alone.p50, figures.alone.p99, figures.alone.errors]);
    table.push([
      `beside ${figures.signUpsPerSecond} sign-ups/s`,
      figures.beside.requestsPerSecond,
      figures.beside.p50,
      figures.beside.p99,
      figures.beside.errors,
    ]);
    const { done, p50, p99, errors } = figures.beside.signUps;
    console.log(`${names.signUps}, ${size} topics`);
    console.log(table.toString());
    console.log(`sign-ups: ${done} made, p50 ${p50} ms, p99 ${p99} ms, ${errors} errors`);
  }

  const machine = {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  };
  const file = path.join(out, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  void mkdir(out, { recursive: true })
    .then(() =>
      writeFile(
        file,
        JSON.stringify(
          {
            date: new Date().toISOString(),
            machine,
            settings: context.settings,
            rows,
            cache,
            scaling,
            live,
            mixed,
            signUps,
          },
          null,
          2,
        ),
      ),
    )
    .then(() => console.error(`results written to ${file}`));
}

/** One bench:ab load run of one server. */
export interface AbFigures {
  rps: number;
  p99: number;
  errors: number;
  bytes: number;
  cpuMicrosPerRequest: number;
}

/** A bench:ab round's figures for one server, as they come. */
export function printAbRound(round: number, name: 'a' | 'b', figures: AbFigures): void {
  console.log(`round ${round} ${name.toUpperCase()}: ${JSON.stringify(figures)}`);
}

/** bench:ab's summary: the median requests/s and server CPU per request of A and of B, and B's ratio to A. */
export function printAbSummary(rounds: Record<'a' | 'b', AbFigures[]>): void {
  const [a, b] = [median(rounds.a.map((r) => r.rps)), median(rounds.b.map((r) => r.rps))];
  const [cpuA, cpuB] = [median(rounds.a.map((r) => r.cpuMicrosPerRequest)), median(rounds.b.map((r) => r.cpuMicrosPerRequest))];
  console.log(`median requests/s: A ${a.toFixed(0)}, B ${b.toFixed(0)}; B/A = ${(b / a).toFixed(3)}`);
  console.log(`median server CPU per request: A ${cpuA} µs, B ${cpuB} µs; B/A = ${(cpuB / cpuA).toFixed(3)}`);
}
