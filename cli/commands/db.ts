import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table, render } from '../output.js';
import type { CliSession, GlobalOptions } from '../runtime.js';
import { requireAdmin } from '../../src/application/actor.js';
import { actingUser } from './shared.js';

/**
 * The schema is the operator's: without `--as` (the system moderator), or `--as` an administrator; `--as` a member
 * is refused (exit 3), as everywhere else. (Without `--as` no user is looked up: the schema may not exist yet.)
 */
async function mayManageSchema(session: CliSession, login: string | undefined): Promise<void> {
  if (login === undefined) return;
  requireAdmin(await session.scope(() => actingUser(session, login)));
}

export function dbCommand(runtime: CliRuntime): Command {
  const db = new Command('db')
    .description('database schema')
    .addHelpText('after', '\nExamples:\n  $ forumctl db status\n  $ forumctl db migrate');

  db.command('migrate')
    .description('apply pending migrations')
    .addHelpText('after', '\nExample:\n  $ forumctl db migrate --json')
    .action(async (_options: unknown, command: Command) => {
      const session = await runtime.connect();
      await mayManageSchema(session, command.optsWithGlobals<GlobalOptions>().as);
      const applied = await session.migrations.up();
      const json = command.optsWithGlobals<GlobalOptions>().json;
      runtime.io.out(json ? JSON.stringify({ applied }) : applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply');
    });

  db.command('status')
    .description('list applied and pending migrations')
    .addHelpText('after', '\nExample:\n  $ forumctl db status')
    .action(async (_options: unknown, command: Command) => {
      const session = await runtime.connect();
      await mayManageSchema(session, command.optsWithGlobals<GlobalOptions>().as);
      const status = await session.migrations.status();
      const json = command.optsWithGlobals<GlobalOptions>().json;
      const rows = [...status.executed.map((name) => [name, 'applied']), ...status.pending.map((name) => [name, 'pending'])];
      runtime.io.out(json ? JSON.stringify(status) : render(table(['migration', 'state'], rows), runtime.io.stdoutIsTerminal));
    });

  return db;
}
