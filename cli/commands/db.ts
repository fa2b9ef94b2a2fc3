import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table, render } from '../output.js';
import type { CliSession, GlobalOptions } from '../runtime.js';
import { Forbidden, NotFound } from '../../src/domain/shared/errors.js';
import { actingUser, confirmed } from './shared.js';

/**
 * The schema is the operator's: without `--as` (the system moderator), or `--as` an administrator; `--as` a member
 * is refused (exit 3), as everywhere else. (Without `--as` no user is looked up: the schema may not exist yet.)
 */
async function mayManageSchema(session: CliSession, login: string | undefined): Promise<void> {
  if (login === undefined) return;
  const actor = await session.scope(() => actingUser(session, login));
  if (actor.role !== 'admin') {
    throw new Forbidden(`Access denied: managing the schema is for administrators; ${actor.login} is not one`);
  }
}

export function dbCommand(runtime: CliRuntime): Command {
  const db = new Command('db')
    .description('database schema')
    .addHelpText('after', '\nExamples:\n  $ forumctl db status\n  $ forumctl db migrate\n  $ forumctl db rollback');

  db.command('migrate')
    .description('apply pending migrations')
    .addHelpText('after', '\nExample:\n  $ forumctl db migrate --json')
    .action(async (_options: unknown, command: Command) => {
      const session = await runtime.connect({ migrate: false });
      await mayManageSchema(session, command.optsWithGlobals<GlobalOptions>().as);
      const applied = await session.migrations.up();
      const json = command.optsWithGlobals<GlobalOptions>().json;
      runtime.io.out(json ? JSON.stringify({ applied }) : applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply');
    });

  db.command('status')
    .description('list applied and pending migrations')
    .addHelpText('after', '\nExample:\n  $ forumctl db status')
    .action(async (_options: unknown, command: Command) => {
      const session = await runtime.connect({ migrate: false });
      await mayManageSchema(session, command.optsWithGlobals<GlobalOptions>().as);
      const status = await session.migrations.status();
      const json = command.optsWithGlobals<GlobalOptions>().json;
      const rows = [...status.executed.map((name) => [name, 'applied']), ...status.pending.map((name) => [name, 'pending'])];
      runtime.io.out(json ? JSON.stringify(status) : render(table(['migration', 'state'], rows), runtime.io.stdoutIsTerminal));
    });

  db.command('rollback')
    .description('undo the last migration applied (or every one back to --to, that one included) with their down migrations')
    .option('--to <migration>', 'undo back to this migration, included (default: the last one applied)')
    .addHelpText(
      'after',
      '\nStop every server of the newer version first: one starting applies its migrations again.' +
        '\n\nExamples:\n  $ forumctl db rollback\n  $ forumctl db rollback --to Migration20261125000000_search_text --yes --json',
    )
    .action(async (options: { to?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const session = await runtime.connect({ migrate: false });
      await mayManageSchema(session, globals.as);
      const plan = await session.migrations.rollbackPlan(options.to);
      if (!plan) throw new NotFound(`applied migration ${options.to}`);
      const names = plan.map((step) => step.name);
      const fixed = plan.filter((step) => !step.reversible).map((step) => step.name);
      if (fixed.length) {
        throw new Error(
          `cannot roll back ${fixed.join(', ')}: ${fixed.length > 1 ? 'they have' : 'it has'} no down migration and cannot be ` +
            'undone; nothing was undone (restore the backup taken before the upgrade instead: docs/operations.md)',
        );
      }
      if (names.length) {
        // The initial migration is never undone (it has no down), so the users table is there to ask who acts.
        const actor = await session.scope(() => actingUser(session, globals.as));
        await confirmed(
          { session, actor, options: globals, io: runtime.io },
          `Undo ${names.length} migration${names.length > 1 ? 's' : ''}, newest first: ${names.join(', ')}?`,
        );
      }
      const undone = await session.migrations.down(names);
      runtime.io.out(
        globals.json ? JSON.stringify({ undone }) : undone.length ? `undone: ${undone.join(', ')}` : 'nothing to undo',
      );
    });

  return db;
}
