import { Command } from 'commander';
import type { CliRuntime, CliUseCases } from '../runtime.js';
import { action, confirmed, integerOption, requireAdministrator } from './shared.js';
import { table, when } from '../output.js';

export function maintenanceCommand(runtime: CliRuntime): Command {
  const maintenance = new Command('maintenance')
    .description('maintenance jobs for operators and scripts (administrators)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl maintenance recount\n  $ forumctl maintenance purge-events --older-than 7 --yes',
    );

  maintenance
    .command('purge-tokens')
    .description(
      'delete revoked tokens, tokens whose access and refresh have both expired, ended sign-in sessions, expired two-factor sign-ins and old authorization codes',
    )
    .addHelpText('after', '\nExample:\n  $ forumctl maintenance purge-tokens --json')
    .action(
      action(runtime, async (context) => {
        requireAdministrator(context, 'maintenance');
        const purged = await context.session.useCases.purgeTokens.execute();
        return {
          json: {
            purged: purged.tokens,
            codes: purged.codes,
            sessions: purged.sessions,
            pending_sign_ins: purged.pendingSignIns,
          },
          text:
            `purged ${purged.tokens} token(s), ${purged.codes} authorization code(s), ${purged.sessions} sign-in session(s), ` +
            `${purged.pendingSignIns} pending two-factor sign-in(s)`,
        };
      }),
    );

  maintenance
    .command('recount')
    .description('recompute every counter and last-reply field from the rows, in short batches; prints what it corrected')
    .option('--batch-size <n>', 'rows per batch (each batch is one short transaction)', '5000')
    .addHelpText('after', '\nExample:\n  $ forumctl maintenance recount --json')
    .action(
      action(runtime, async (context, options: { batchSize: string }) => {
        requireAdministrator(context, 'maintenance');
        const batchSize = integerOption(options.batchSize, 'batch-size', 1)!;
        const progress = context.io.progress();
        const corrected = await context.session.useCases.recount
          .execute({
            batchSize,
            onProgress: (family) => {
              const bar = progress.bar(family);
              return (done, total) => bar.update(done, total);
            },
          })
          .finally(() => progress.stop());
        const rows = Object.entries(corrected).map(([family, count]) => [family, count]);
        return { json: { corrected }, text: table(['rows', 'corrected'], rows) };
      }),
    );

  const purge = (log: string, useCase: (useCases: CliUseCases) => { execute(days: number): Promise<number> }) =>
    action(runtime, async (context, options: { olderThan: string }) => {
      requireAdministrator(context, 'maintenance');
      const days = integerOption(options.olderThan, 'older-than', 0)!;
      const before = when(new Date(Date.now() - days * 86_400_000));
      await confirmed(context, `Delete every ${log} older than ${days} days (from before ${before} UTC)?`);
      const purged = await useCase(context.session.useCases).execute(days);
      return { json: { purged }, text: `purged ${purged} ${log}(s)` };
    });

  maintenance
    .command('purge-notifications')
    .description('delete notifications older than a number of days, in batches')
    .requiredOption('--older-than <days>', 'age in days')
    .addHelpText('after', '\nExample:\n  $ forumctl maintenance purge-notifications --older-than 90 --yes')
    .action(purge('notification', (useCases) => useCases.purgeNotifications));

  // Logs that only serve a while: each purge keeps a default number of days.
  for (const [name, description, days, log, useCase] of [
    [
      'purge-events',
      'delete events older than a number of days (the log live streams follow), in batches',
      '7',
      'event',
      (u: CliUseCases) => u.purgeEvents,
    ],
    [
      'purge-deliveries',
      'delete webhook deliveries that ended (delivered or failed) older than a number of days, with their attempts',
      '30',
      'webhook delivery',
      (u: CliUseCases) => u.purgeDeliveries,
    ],
  ] as const) {
    maintenance
      .command(name)
      .description(description)
      .option('--older-than <days>', 'age in days', days)
      .addHelpText('after', `\nExample:\n  $ forumctl maintenance ${name} --older-than ${days} --yes`)
      .action(purge(log, useCase));
  }

  return maintenance;
}
