import type { ActingUser } from '../src/application/actor.js';
import type { UseCases } from '../src/application/use-cases.js';
import type { Wire } from '../src/adapters/presentation/wire.js';

/** What forumctl's commands need from the outside: a database session (opened lazily) and the terminal. */
export interface CliSession {
  useCases: UseCases;
  wire: Wire;
  /** Runs `work` in a fresh persistence context. */
  scope<T>(work: () => Promise<T>): Promise<T>;
  migrations: {
    up(): Promise<string[]>;
    status(): Promise<{ executed: string[]; pending: string[] }>;
  };
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Reads all of standard input (a password piped by a script). */
  readStdin(): Promise<string>;
  stdinIsTerminal: boolean;
  stdoutIsTerminal: boolean;
  stderrIsTerminal: boolean;
  /** Asks a yes/no question on the terminal. */
  confirm(question: string): Promise<boolean>;
  /** Asks for a secret on the terminal without echoing it. */
  secret(question: string): Promise<string>;
  /** A job's progress bars on stderr when it is a terminal; silent otherwise (scripts, --json pipes). */
  progress(): Progress;
}

/** One job's bars, drawn together: one line per step. */
export interface Progress {
  bar(label: string): ProgressBar;
  stop(): void;
}

export interface ProgressBar {
  update(done: number, total: number): void;
  stop(): void;
}

export interface CliRuntime {
  connect(): Promise<CliSession>;
  io: CliIo;
}

export interface GlobalOptions {
  json?: boolean;
  as?: string;
  yes?: boolean;
}

/** Everything an action gets: the session, the acting user (`--as`, or the system moderator) and the options. */
export interface ActionContext {
  session: CliSession;
  actor: ActingUser;
  options: GlobalOptions;
  io: CliIo;
}
