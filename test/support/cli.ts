import { runForumctl } from '../../cli/program.js';
import { type CliRuntime, CliUseCases } from '../../cli/runtime.js';
import { migrate, migrationStatus, rollback, rollbackPlan } from '../../src/adapters/persistence/database/orm.js';
import { testEnv } from './env.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON document `--json` promises. */
  json<T = Record<string, unknown>>(): T;
}

/** Runs forumctl through `buildProgram` against the test database, capturing its output. */
export async function forumctl(
  args: string[],
  options: {
    stdin?: string;
    /** stdin is a terminal (questions are asked). */
    terminal?: boolean;
    /** stdout is a terminal (tables are boxed); false: a pipe. */
    stdoutTerminal?: boolean;
    answer?: boolean;
    /** What is typed at each hidden prompt, in order. */
    secrets?: string[];
  } = {},
): Promise<CliResult> {
  const env = testEnv();
  const out: string[] = [];
  const err: string[] = [];
  const questions: string[] = [];
  const secrets = [...(options.secrets ?? [])];
  const runtime: CliRuntime = {
    connect: async () => ({
      useCases: env.container.get<CliUseCases>(CliUseCases),
      wire: env.wire,
      scope: env.scope,
      migrations: {
        up: () => migrate(env.orm),
        status: () => migrationStatus(env.orm),
        rollbackPlan: (to) => rollbackPlan(env.orm, to),
        down: (names) => rollback(env.orm, names),
      },
    }),
    io: {
      out: (text) => out.push(text),
      err: (text) => err.push(text),
      readStdin: async () => options.stdin ?? '',
      stdinIsTerminal: options.terminal ?? false,
      stdoutIsTerminal: options.stdoutTerminal ?? true,
      stderrIsTerminal: false,
      secret: async (question) => {
        questions.push(question);
        return secrets.shift() ?? '';
      },
      progress: () => ({ bar: () => ({ update: () => undefined, stop: () => undefined }), stop: () => undefined }),
      confirm: async (question) => {
        questions.push(question);
        return options.answer ?? false;
      },
    },
  };
  const code = await runForumctl(runtime, args);
  const stdout = out.join('\n');
  return {
    code,
    stdout,
    stderr: [...questions, ...err].join('\n'),
    json: <T>() => JSON.parse(stdout) as T,
  };
}
