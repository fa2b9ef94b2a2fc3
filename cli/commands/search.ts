import { Command } from 'commander';
import type { ProgressBar } from '../runtime.js';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { REINDEX_BATCH } from '../../src/application/search/reindex.js';
import { action, integerOption, requireAdministrator } from './shared.js';

export function searchCommand(runtime: CliRuntime): Command {
  const search = new Command('search')
    .description('the full-text search index')
    .addHelpText('after', '\nExamples:\n  $ forumctl search reindex');

  search
    .command('reindex')
    .description(
      'rebuild the search index from every topic and reply, in batches (safe while the service serves: an edit made ' +
        'meanwhile is never overwritten with older words)',
    )
    .option('--batch-size <n>', 'topics or replies per batch (each one short statement)', String(REINDEX_BATCH))
    .addHelpText('after', '\nExample:\n  $ forumctl search reindex --json')
    .action(
      action(runtime, async (context, options: { batchSize: string }) => {
        requireAdministrator(context, 'rebuilding the search index');
        const batchSize = integerOption(options.batchSize, 'batch-size', 1, 100_000)!;
        const progress = context.io.progress();
        const bars = new Map<string, ProgressBar>();
        const indexed = await context.session.useCases.reindexSearch
          .execute({ batchSize }, (kind, done, total) => {
            let bar = bars.get(kind);
            if (!bar) bars.set(kind, (bar = progress.bar(kind)));
            bar.update(done, total);
          })
          .finally(() => progress.stop());
        return {
          json: { indexed },
          text: table(['documents', 'indexed'], Object.entries(indexed)),
        };
      }),
    );

  return search;
}
