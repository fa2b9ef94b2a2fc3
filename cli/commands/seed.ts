import { Command } from 'commander';
import { DEFAULT_SEED, type SeedPlan, type SeedStep } from '../../src/application/maintenance/seed.js';
import type { CliRuntime, ProgressBar } from '../runtime.js';
import { action, confirmed, integerOption, requireAdministrator } from './shared.js';

const COUNTS = ['users', 'nodes', 'topics', 'replies', 'likes', 'notifications'] as const;

export function seedCommand(runtime: CliRuntime): Command {
  const seed = new Command('seed')
    .description('fill the database with generated data (for benchmarks and demos), in bulk')
    .option('--password <password>', 'the password of every seeded user', 'seed-password')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl seed --yes\n  $ forumctl seed --users 100 --topics 10000 --replies 100000 --json',
    );
  for (const name of COUNTS) seed.option(`--${name} <n>`, `how many ${name}`, String(DEFAULT_SEED[name]));

  seed.action(
    action(runtime, async (context, options: Record<(typeof COUNTS)[number], string> & { password: string }) => {
      requireAdministrator(context, 'seeding the database');
      const plan = Object.fromEntries(COUNTS.map((name) => [name, integerOption(options[name], name)])) as unknown as SeedPlan;
      const adding = COUNTS.map((name) => `${plan[name].toLocaleString('en')} ${name}`).join(', ');
      await confirmed(context, `Add ${adding} to this database (in one transaction, with counters and the search index)?`);
      const progress = context.io.progress();
      const bars = new Map<SeedStep, ProgressBar>();
      const started = Date.now();
      await context.session.useCases.seedDatabase
        .execute(plan, options.password, (step, done, total) => {
          if (!bars.has(step)) bars.set(step, progress.bar(step));
          bars.get(step)!.update(done, total);
        })
        .finally(() => progress.stop());
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      return { json: { seeded: plan, seconds }, text: `seeded ${JSON.stringify(plan)} in ${seconds} s` };
    }),
  );
  return seed;
}
