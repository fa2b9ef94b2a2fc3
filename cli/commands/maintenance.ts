import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { action } from './shared.js';

export function maintenanceCommand(runtime: CliRuntime): Command {
  const maintenance = new Command('maintenance').description('maintenance jobs for operators and scripts');

  maintenance
    .command('purge-tokens')
    .description('delete revoked tokens and tokens whose access and refresh have both expired')
    .addHelpText('after', '\nExample:\n  $ forumctl maintenance purge-tokens --json')
    .action(
      action(runtime, async (context) => {
        const purged = await context.session.useCases.purgeTokens.execute();
        return { json: { purged }, text: `purged ${purged} token(s)` };
      }),
    );

  return maintenance;
}
