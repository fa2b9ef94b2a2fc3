import cliProgress from 'cli-progress';
import Table from 'cli-table3';
import type { Progress } from './runtime.js';
import { CommanderError } from 'commander';
import { DomainError, type ErrorCode } from '../src/domain/shared/errors.js';
import { ERROR_NAMES } from '../src/adapters/presentation/errors.js';

/** The contract's exit codes: 0 success, 2 invalid input, 3 permission denied, 4 not found, 1 anything else. */
export const EXIT = { ok: 0, failure: 1, invalid: 2, denied: 3, notFound: 4 } as const;

const EXIT_CODES: Record<ErrorCode, number> = {
  InvalidInput: EXIT.invalid,
  RuleViolated: EXIT.invalid,
  Forbidden: EXIT.denied,
  Unauthenticated: EXIT.denied,
  NotFound: EXIT.notFound,
  TooManyRequests: EXIT.failure,
  Unavailable: EXIT.failure,
};

export function exitCodeFor(error: unknown): number {
  if (error instanceof DomainError) return EXIT_CODES[error.code];
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.invalid;
  return EXIT.failure;
}

/** One line for stderr: what went wrong, never a stack trace. */
export function errorLine(error: unknown): string {
  return `error: ${errorMessage(error)}`;
}

function errorMessage(error: unknown): string {
  if (error instanceof DomainError && error.code === 'NotFound') return error.message;
  const message = error instanceof Error ? error.message : String(error);
  // Driver errors read "<the SQL> - <what PostgreSQL said>": the second part is the one a person needs.
  const reason = message.includes(' - ') ? message.slice(message.lastIndexOf(' - ') + 3) : message;
  // Commander's own messages already start with "error: ".
  return reason
    .replace(/\s+/g, ' ')
    .replace(/^error: /, '')
    .trim();
}

/**
 * With `--json`, errors are JSON too (on stderr), named as the API names them, so that a script parses one
 * format: `{"error":"ResourceNotFound","message":"user nobody not found"}`.
 */
export function errorJson(error: unknown): string {
  const name =
    error instanceof DomainError
      ? ERROR_NAMES[error.code]
      : error instanceof CommanderError
        ? ERROR_NAMES.InvalidInput
        : 'CommandFailed';
  return JSON.stringify({ error: name, message: errorMessage(error) });
}

/** What a command prints as text: a string, or something drawn for the terminal or for a pipe. */
export type Printable = string | ((terminal: boolean) => string);

export function render(text: Printable, terminal: boolean): string {
  return typeof text === 'string' ? text : text(terminal);
}

/** No box and no rule between rows: columns two spaces apart (the rule under the header is drawn by `table`). */
const COMPACT = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
};

/**
 * A table. On a terminal: the header, one rule under it, then one line per row (as kubectl and gh print them),
 * columns aligned (East Asian characters count two), a cell cut to its column's `widths` entry with "…".
 * In a pipe: one line per row with tab-separated cells, uncut, and no header (as gh prints them), so that `cut`
 * and `awk` can take it apart. A cell's tabs and line breaks become spaces there.
 */
export function table(
  head: string[],
  rows: (string | number | boolean | null)[][],
  widths: (number | undefined)[] = [],
): Printable {
  const cells = rows.map((row) => row.map((cell) => (cell === null ? '' : String(cell))));
  return (terminal) => {
    if (!terminal) return cells.map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
    const t = new Table({ head, ...COMPACT });
    t.push(...cells.map((row) => row.map((cell, i) => (widths[i] === undefined ? cell : clip(cell, widths[i])))));
    const [header, ...lines] = t.toString().split('\n');
    const rule = (t.options.colWidths as number[]).map((width) => '─'.repeat(width)).join('  ');
    return [header!, rule, ...lines].map((line) => line.trimEnd()).join('\n');
  };
}

/** Characters a terminal draws two columns wide (CJK, Hangul, full-width forms). */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/** `text` on one line, at most `width` terminal columns, cut with "…" when longer. */
export function clip(text: string, width: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (widthOf(line) <= width) return line;
  let used = 0;
  let cut = '';
  for (const char of line) {
    used += widthOf(char);
    if (used > width - 1) break;
    cut += char;
  }
  return `${cut.trimEnd()}…`;
}

const widthOf = (text: string) => [...text].reduce((sum, char) => sum + (WIDE.test(char) ? 2 : 1), 0);

/**
 * Progress bars on stderr, one group per job (a multi-bar: each step has its line, none overwrites another),
 * with rate and time left; only when stderr is a terminal. Ctrl-C stops them first, so the cursor comes back.
 */
/** Labels are padded to one width, so that the bars of a job line up. */
const LABEL_WIDTH = 20;

export function terminalProgress(): Progress {
  if (!process.stderr.isTTY) return { bar: () => ({ update: () => undefined, stop: () => undefined }), stop: () => undefined };
  const multi = new cliProgress.MultiBar(
    {
      format: '{label} [{bar}] {percentage}% {value}/{total} | {rate}/s | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      etaBuffer: 50,
      // 200,000 reads better than 200000.
      formatValue: (value, _options, type) => (type === 'value' || type === 'total' ? value.toLocaleString('en') : String(value)),
    },
    cliProgress.Presets.shades_classic,
  );
  const interrupted = () => {
    multi.stop();
    process.stderr.write('\ninterrupted\n');
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  return {
    bar(label) {
      let bar: cliProgress.SingleBar | null = null;
      const started = Date.now();
      return {
        update(done, total) {
          const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
          const payload = { label: label.padEnd(LABEL_WIDTH), rate: rate.toLocaleString('en') };
          if (!bar) bar = multi.create(total, done, payload);
          else {
            bar.setTotal(total);
            bar.update(done, payload);
          }
        },
        stop: () => bar?.stop(),
      };
    },
    stop() {
      multi.stop();
      process.removeListener('SIGINT', interrupted);
    },
  };
}

/** A moment as a table shows it, to the minute, in UTC: `2026-11-26 11:44`; blank for none. */
export function when(moment: Date | string | null): string {
  if (moment === null) return '';
  return (typeof moment === 'string' ? moment : moment.toISOString()).slice(0, 16).replace('T', ' ');
}
