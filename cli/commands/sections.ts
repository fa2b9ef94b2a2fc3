import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, integerOption, needing, REASON_FLAGS, REASON_HELP, reasonOf } from './shared.js';

/** Sections: the headings nodes are grouped under (contract §16a). */
export function sectionsCommand(runtime: CliRuntime): Command {
  const sections = new Command('sections')
    .description('sections (headings that group nodes)')
    .addHelpText('after', '\nExamples:\n  $ forumctl sections create Programming --sort 10\n  $ forumctl sections list');

  sections
    .command('create <name>')
    .description('create a section (administrators); put nodes in it with `nodes section`')
    .option('--sort <n>', 'higher sorts first', '0')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl sections create Programming --sort 10 --json')
    .action(
      action(runtime, async (context, name: string, options: { sort: string; reason?: string }) => {
        const input = { name, sort: integerOption(options.sort, 'sort') };
        const id = await needing(context, 'creating sections is for administrators', () =>
          context.session.useCases.createSection.execute(context.actor, input, reasonOf(options)),
        );
        const section = (await context.session.useCases.nodes.sections()).find((item) => item.id === id)!;
        return {
          json: { id: section.id, name: section.name, sort: section.sort, nodes_count: section.nodesCount },
          text: `created section ${section.name} (id ${section.id})`,
        };
      }),
    );

  sections
    .command('list')
    .description('list sections, highest sort first, with how many nodes each holds')
    .addHelpText('after', '\nExample:\n  $ forumctl sections list --json')
    .action(
      action(runtime, async (context) => {
        const list = await context.session.useCases.nodes.sections();
        return {
          json: { sections: list.map((s) => ({ id: s.id, name: s.name, sort: s.sort, nodes_count: s.nodesCount })) },
          text: table(
            ['id', 'name', 'sort', 'nodes'],
            list.map((s) => [s.id, s.name, s.sort, s.nodesCount]),
          ),
        };
      }),
    );

  return sections;
}
