import { Command } from 'commander';
import type { CliRuntime } from './runtime.js';
import { errorJson, errorLine, exitCodeFor } from './output.js';
import { completionCommand } from './commands/completion.js';
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { appsCommand } from './commands/apps.js';
import { dbCommand } from './commands/db.js';
import { maintenanceCommand } from './commands/maintenance.js';
import { nodesCommand } from './commands/nodes.js';
import { groupsCommand } from './commands/groups.js';
import { sectionsCommand } from './commands/sections.js';
import { repliesCommand } from './commands/replies.js';
import { searchCommand } from './commands/search.js';
import { seedCommand } from './commands/seed.js';
import { tokensCommand } from './commands/tokens.js';
import { topicsCommand } from './commands/topics.js';
import { usersCommand } from './commands/users.js';
import { invitesCommand } from './commands/invites.js';
import { webhooksCommand } from './commands/webhooks.js';
import { authCommand } from './commands/auth.js';
import { auditCommand } from './commands/audit.js';
import { mailCommand } from './commands/mail.js';
import { reviewCommand } from './commands/review.js';
import { uploadsCommand } from './commands/uploads.js';
import { importCommand } from './commands/import.js';

/** The whole command tree, testable without a process: tests pass a runtime with captured output. */
export function buildProgram(runtime: CliRuntime): Command {
  const program = new Command('forumctl')
    .description('moderate and maintain a forum: users, nodes, topics, tokens, search, the database')
    .option('--json', 'print one JSON document on stdout')
    .option('--as <login>', 'act as this user (default: the built-in system moderator)')
    .option('--yes', 'do not ask before destructive commands')
    .version(packageVersion(), '-V, --version', 'print the version')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl users list\n  $ forumctl topics ban 42 --reason spam --yes\n  $ forumctl audit list --json\n\n' +
        'Shell completion, in the project folder: source <(npx forumctl completion bash), or zsh',
    )
    .showHelpAfterError()
    .configureOutput({ writeOut: (text) => runtime.io.out(text.trimEnd()), writeErr: (text) => runtime.io.err(text.trimEnd()) });

  for (const command of [
    dbCommand,
    usersCommand,
    invitesCommand,
    nodesCommand,
    groupsCommand,
    sectionsCommand,
    topicsCommand,
    repliesCommand,
    uploadsCommand,
    importCommand,
    appsCommand,
    authCommand,
    tokensCommand,
    maintenanceCommand,
    searchCommand,
    webhooksCommand,
    auditCommand,
    reviewCommand,
    mailCommand,
    seedCommand,
  ]) {
    program.addCommand(command(runtime));
  }
  program.addCommand(completionCommand(runtime, program));
  // Every subcommand reports parse errors through the same output and exits through the caller.
  const configure = (command: Command) => {
    command
      .exitOverride()
      // --json, --as and --yes work on every command: every command's help says so.
      .configureHelp({ showGlobalOptions: true })
      .configureOutput({ writeOut: (t) => runtime.io.out(t.trimEnd()), writeErr: (t) => runtime.io.err(t.trimEnd()) });
    command.commands.forEach(configure);
  };
  configure(program);
  return program;
}

/**
 * Runs one forumctl invocation and returns its exit code. Errors become one line on stderr (Commander has
 * already printed its own parse errors and help).
 */
export async function runForumctl(runtime: CliRuntime, args: string[]): Promise<number> {
  // With --json, a script reads errors as JSON on stderr: Commander's own messages are held back and reworded.
  const json = args.includes('--json');
  const quiet = json ? { ...runtime, io: { ...runtime.io, err: () => undefined } } : runtime;
  try {
    await buildProgram(quiet).parseAsync(args, { from: 'user' });
    return 0;
  } catch (error) {
    const code = exitCodeFor(error);
    if (json && code !== 0) runtime.io.err(errorJson(error));
    else if (!(error instanceof CommanderError)) runtime.io.err(errorLine(error));
    return code;
  }
}

/** The version in package.json (two folders above dist/cli/program.js). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
