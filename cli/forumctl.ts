import 'reflect-metadata';
import { createInterface } from 'node:readline/promises';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/adapters/persistence/database/database.js';
import { runForumctl } from './program.js';
import { type CliRuntime, type CliSession, CliUseCases } from './runtime.js';
import { terminalProgress } from './output.js';

/**
 * What a command that reaches the database needs: the ORM, the core of the composition root (no API, no pages, no
 * HTTP app: forumctl is its own driving adapter, with its own records) and every adapter it builds. Loaded when a
 * command first connects, so that `--help`, `--version` and a mistyped command load none of it (issue 44: every
 * call took 2 s).
 */
async function persistence() {
  const [database, orm, container, wire, cli] = await Promise.all([
    import('../src/adapters/persistence/database/database.js'),
    import('../src/adapters/persistence/database/orm.js'),
    import('../src/container/core.js'),
    import('../src/adapters/presentation/wire.js'),
    import('./container.js'),
  ]);
  return { ...database, ...orm, ...container, Wire: wire.Wire, forumctlModule: cli.forumctlModule };
}

/** Entry: runtime -> program -> parseAsync -> close. Exit codes through process.exitCode, never process.exit. */
async function main(argv: string[]): Promise<void> {
  const config = loadConfig();
  let database: Database | null = null;
  let session: CliSession | null = null;

  const runtime: CliRuntime = {
    async connect(options = {}) {
      if (session) return session;
      const { openDatabase, migrate, migrationStatus, rollback, rollbackPlan, buildCoreContainer, Wire, forumctlModule } =
        await persistence();
      database = await openDatabase(config, { poolMax: 4 });
      const db = database;
      // Commands other than `db` need the schema: bring it up to date, as the server does at start. What this
      // applies, `db migrate` reports as its own. The `db` commands leave it as it is (`db status` shows what is
      // pending, `db rollback` undoes).
      const applied = options.migrate === false ? [] : await migrate(db.orm);
      const container = buildCoreContainer(db, config);
      container.load(forumctlModule);
      session = {
        useCases: container.get<CliUseCases>(CliUseCases),
        wire: container.get(Wire),
        scope: db.scope,
        migrations: {
          up: async () => [...applied.splice(0), ...(await migrate(db.orm))],
          status: () => migrationStatus(db.orm),
          rollbackPlan: (to) => rollbackPlan(db.orm, to),
          down: (names) => rollback(db.orm, names),
        },
      };
      return session;
    },
    io: {
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
      readStdin: async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      },
      stdinIsTerminal: Boolean(process.stdin.isTTY),
      stdoutIsTerminal: Boolean(process.stdout.isTTY),
      stderrIsTerminal: Boolean(process.stderr.isTTY),
      progress: () => terminalProgress(),
      secret: async (question) => {
        const { read } = await import('read');
        const answer = await read({ prompt: question, silent: true, replace: '', output: process.stderr });
        // Nothing was echoed, not even the Enter: end the prompt's line.
        process.stderr.write('\n');
        return answer.trim();
      },
      confirm: async (question) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return /^y(es)?$/i.test((await rl.question(question)).trim());
        } finally {
          rl.close();
        }
      },
    },
  };

  try {
    process.exitCode = await runForumctl(runtime, argv.slice(2));
  } finally {
    // What the command did is committed by now: a failure to leave cleanly is reported, not a crash.
    await (database as Database | null)?.close().catch((error: unknown) => {
      process.stderr.write(
        `warning: the database was not closed cleanly: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  }
}

// A reader that stops early (`forumctl users list | head`) closes the pipe: that ends the output, not in a crash.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

await main(process.argv);
