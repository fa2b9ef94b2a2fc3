import cliProgress from 'cli-progress';
import Table from 'cli-table3';
import type { ProgressBar } from './runtime.js';
import { CommanderError } from 'commander';
import { DomainError, type ErrorCode } from '../src/domain/shared/errors.js';

/** The contract's exit codes: 0 success, 2 invalid input, 3 permission denied, 4 not found, 1 anything else. */
export const EXIT = { ok: 0, failure: 1, invalid: 2, denied: 3, notFound: 4 } as const;

const EXIT_CODES: Record<ErrorCode, number> = {
  InvalidInput: EXIT.invalid,
  RuleViolated: EXIT.invalid,
  Forbidden: EXIT.denied,
  Unauthenticated: EXIT.denied,
  NotFound: EXIT.notFound,
  TooManyRequests: EXIT.failure,
};

export function exitCodeFor(error: unknown): number {
  if (error instanceof DomainError) return EXIT_CODES[error.code];
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.invalid;
  return EXIT.failure;
}

/** One line for stderr: what went wrong, never a stack trace. */
export function errorLine(error: unknown): string {
  if (error instanceof DomainError && error.code === 'NotFound') return `error: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  // Driver errors read "<the SQL> - <what PostgreSQL said>": the second part is the one a person needs.
  const reason = message.includes(' - ') ? message.slice(message.lastIndexOf(' - ') + 3) : message;
  return `error: ${reason.replace(/\s+/g, ' ').trim()}`;
}

/** A plain table: no colours, so it reads the same piped into a file. */
export function table(head: string[], rows: (string | number | boolean | null)[][]): string {
  const t = new Table({ head, style: { head: [], border: [] } });
  t.push(...rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell)))));
  return t.toString();
}

/** cli-progress on stderr, only when stderr is a terminal: nothing is written into pipes or logs. */
export function terminalProgress(label: string): ProgressBar {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label.padEnd(14)} [{bar}] {percentage}% {value}/{total}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, done);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done);
      }
    },
    stop: () => started && bar.stop(),
  };
}
