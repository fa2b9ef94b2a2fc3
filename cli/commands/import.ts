import { Command, Option } from 'commander';
import { InvalidInput } from '../../src/domain/shared/errors.js';
import { HOMELAND_DEVISE_PEPPER } from '../../src/application/imports/import-homeland.js';
import type { HomelandImportReport } from '../../src/application/imports/ports.js';
import type { CliRuntime, ProgressBar } from '../runtime.js';
import { table } from '../output.js';
import { action, needing } from './shared.js';

/** `--rename-login 12=alice` (repeatable): a source id and what it becomes. */
function renames(option: string): (value: string, previous?: Map<number, string>) => Map<number, string> {
  return (value, previous = new Map()) => {
    const match = /^(\d+)=(.+)$/.exec(value);
    if (!match) throw new InvalidInput(option, `${option} takes <homeland id>=<new value>, as in 12=alice`);
    return new Map(previous).set(Number(match[1]), match[2]!);
  };
}

export function importCommand(runtime: CliRuntime): Command {
  const imports = new Command('import')
    .description('bring a community here from another forum (administrators)')
    .addHelpText(
      'after',
      '\nExample:\n  $ forumctl import homeland --from postgres://localhost/homeland --uploads /srv/homeland/public/uploads',
    );

  imports
    .command('homeland')
    .description(
      'copy a homeland database (users, nodes, topics, replies, likes, follows, favorites, blocks, notifications, ' +
        'devices, OAuth applications and live tokens, photos) into this forum, keeping every id; read in one snapshot, ' +
        'never written; a second run copies only what changed; then counters are recounted and the search index rebuilt',
    )
    .requiredOption('--from <url>', "the homeland database's PostgreSQL URL (read only)")
    .option('--uploads <folder>', "homeland's public/uploads folder (photos are read from its photo/ folder)")
    .addOption(
      new Option(
        '--devise-pepper <pepper>',
        "config.pepper of homeland's config/initializers/devise.rb, if the site changed it",
      ).default(HOMELAND_DEVISE_PEPPER, "homeland's shipped one"),
    )
    .option('--admin-emails <list>', "more administrators, by e-mail (comma-separated; as homeland's admin_emails)")
    .option(
      '--rename-login <id=login>',
      'a new login for a homeland user whose login cannot be kept (repeatable)',
      renames('--rename-login'),
    )
    .option(
      '--rename-node <id=name>',
      'a new name for a homeland node whose name cannot be kept (repeatable)',
      renames('--rename-node'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ forumctl import homeland --from postgres://localhost/homeland\n' +
        '  $ forumctl import homeland --from postgres://localhost/homeland --uploads ./public/uploads --json\n' +
        '  $ forumctl import homeland --from postgres://localhost/homeland --rename-login 42=jane_doe',
    )
    .action(
      action(
        runtime,
        async (
          context,
          options: {
            from: string;
            uploads?: string;
            devisePepper: string;
            adminEmails?: string;
            renameLogin?: Map<number, string>;
            renameNode?: Map<number, string>;
          },
        ) => {
          const progress = context.io.progress();
          const bars = new Map<string, ProgressBar>();
          const report = await needing(context, 'importing a community is for administrators', () =>
            context.session.useCases.importHomeland.execute(
              context.actor,
              {
                from: options.from,
                uploads: options.uploads ?? null,
                devisePepper: options.devisePepper,
                adminEmails: (options.adminEmails ?? '').split(/[\s,]+/).filter((email) => email !== ''),
                renameLogins: options.renameLogin ?? new Map(),
                renameNodes: options.renameNode ?? new Map(),
              },
              (label) => (done, total) => {
                let bar = bars.get(label);
                if (!bar) bars.set(label, (bar = progress.bar(label)));
                bar.update(done, total);
              },
            ),
          ).finally(() => progress.stop());
          return { json: report, text: reportText(report) };
        },
      ),
    );

  return imports;
}

/** The report as a table per table (the reasons for skipped rows under it, one line each), then the notes. */
function reportText(report: HomelandImportReport) {
  const total = (skipped: Record<string, number>) => Object.values(skipped).reduce((a, b) => a + b, 0);
  const rows = report.tables.map((t) => [t.table, t.read, t.inserted, t.updated, t.unchanged, t.removed, total(t.skipped)]);
  const summary = table(['table', 'read', 'new', 'changed', 'unchanged', 'removed', 'skipped'], rows);
  const reasons = report.tables.flatMap((t) =>
    Object.entries(t.skipped).map(([why, n]) => `skipped: ${t.table}: ${n.toLocaleString('en')} ${why}`),
  );
  return (terminal: boolean) =>
    [
      `homeland ${report.sourceVersion}${report.repeated ? ', imported again: only what changed was applied' : ''}`,
      typeof summary === 'string' ? summary : summary(terminal),
      ...reasons,
      ...report.notes.map((note) => `note: ${note}`),
    ].join('\n');
}
