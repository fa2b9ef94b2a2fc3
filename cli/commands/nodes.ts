import { Command } from 'commander';
import { table } from '../output.js';
import type { ActionContext, CliRuntime } from '../runtime.js';
import type { NodeView } from '../../src/application/read-models.js';
import { action, idArgument, integerOption, needing, REASON_FLAGS, REASON_HELP, reasonOf } from './shared.js';
import { parseAllowed } from '../../src/domain/nodes/access.js';
import type { NodeAccessChange } from '../../src/application/nodes/node-access.js';

/** The access options of `nodes create` and `nodes access` (contract §23). */
interface AccessOptions {
  read?: string;
  topics?: string;
  replies?: string;
  moderators?: string;
}

/** Adds the access options (contract §23) to `command`. */
const withAccessOptions = (command: Command): Command =>
  command
    .option('--read <who>', 'who may read: everyone, members, staff, or group names (a,b)')
    .option('--topics <who>', 'who may start topics: members, staff, or group names')
    .option('--replies <who>', 'who may reply: members, staff, or group names')
    .option('--moderators <groups>', 'groups whose members moderate the node (none: "")');

function accessChange(options: AccessOptions): NodeAccessChange {
  return {
    ...(options.read !== undefined ? { read: parseAllowed(options.read, 'read') } : {}),
    ...(options.topics !== undefined ? { topics: parseAllowed(options.topics, 'topics') } : {}),
    ...(options.replies !== undefined ? { replies: parseAllowed(options.replies, 'replies') } : {}),
    ...(options.moderators !== undefined
      ? {
          moderators: options.moderators
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== ''),
        }
      : {}),
  };
}

const accessText = (access: Record<string, string>) =>
  `read: ${access.read}; topics: ${access.topics}; replies: ${access.replies}; moderators: ${access.moderators || 'none'}`;

/** A node as every nodes command prints it in JSON: the API's Node, and whether it is hidden. */
const nodeJson = (context: ActionContext, node: NodeView) => ({ ...context.session.wire.node(node), hidden: node.hidden });

export function nodesCommand(runtime: CliRuntime): Command {
  const nodes = new Command('nodes')
    .description('nodes (the categories topics belong to)')
    .addHelpText('after', '\nExamples:\n  $ forumctl nodes list\n  $ forumctl nodes create Ruby --summary "All things Ruby"');

  withAccessOptions(nodes.command('create <name>'))
    .description('create a node')
    .option('--summary <summary>', 'one line about the node')
    .option('--sort <n>', 'higher sorts first', '0')
    .option('--hidden', 'hide its topics from anonymous visitors')
    .option('--section <section-id>', 'the section to list it under (forumctl sections list)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl nodes create Ruby --summary "All things Ruby" --sort 10 --json' +
        '\n  $ forumctl nodes create "Staff room" --read staff-room --topics staff-room --replies staff-room',
    )
    .action(
      action(
        runtime,
        async (
          context,
          name: string,
          options: { summary?: string; sort: string; hidden?: boolean; section?: string; reason?: string } & AccessOptions,
        ) => {
          const { useCases } = context.session;
          const input = {
            name,
            summary: options.summary,
            sort: integerOption(options.sort, 'sort'),
            hidden: options.hidden ?? false,
            sectionId: options.section === undefined ? null : idArgument(options.section, 'section'),
            access: accessChange(options),
          };
          const id = await needing(context, 'creating nodes is for administrators', () =>
            useCases.createNode.execute(context.actor, input, reasonOf(options)),
          );
          const node = (await useCases.nodes.get(id, { actor: context.actor })).result!;
          return { json: nodeJson(context, node), text: `created node ${node.name} (id ${node.id})` };
        },
      ),
    );

  nodes
    .command('list')
    .description('list nodes, highest sort first')
    .addHelpText('after', '\nExample:\n  $ forumctl nodes list --json')
    .action(
      action(runtime, async (context) => {
        const list = (await context.session.useCases.nodes.list({ actor: context.actor })).result;
        // Which nodes are hidden is an administrator's to know: the API's node list does not say (§4, §9).
        if (context.actor.role !== 'admin') {
          return {
            json: { nodes: list.map((node) => context.session.wire.node(node)) },
            text: table(
              ['id', 'name', 'section', 'sort', 'topics'],
              list.map((n) => [n.id, n.name, n.section?.name ?? '', n.sort, n.topicsCount]),
            ),
          };
        }
        return {
          json: { nodes: list.map((node) => nodeJson(context, node)) },
          text: table(
            ['id', 'name', 'section', 'sort', 'topics', 'hidden'],
            list.map((n) => [n.id, n.name, context.session.wire.node(n).section_name, n.sort, n.topicsCount, n.hidden]),
          ),
        };
      }),
    );

  for (const [verb, hidden] of [
    ['hide', true],
    ['unhide', false],
  ] as const) {
    nodes
      .command(`${verb} <id>`)
      .description(hidden ? 'hide a node from anonymous topic lists' : 'show a hidden node again')
      .option(REASON_FLAGS, REASON_HELP)
      .addHelpText('after', `\nExample:\n  $ forumctl nodes ${verb} 3 --reason "spam wave"`)
      .action(
        action(runtime, async (context, id: string, options: { reason?: string }) => {
          const nodeId = idArgument(id, 'id');
          await needing(context, 'hiding and showing nodes is for administrators', () =>
            context.session.useCases.setNodeHidden.execute(context.actor, nodeId, hidden, reasonOf(options)),
          );
          const node = (await context.session.useCases.nodes.get(nodeId, { actor: context.actor })).result!;
          return {
            json: nodeJson(context, node),
            text: `node ${node.name} (id ${node.id}) is ${hidden ? 'hidden' : 'visible'}`,
          };
        }),
      );
  }

  nodes
    .command('section <node-id> <section-id>')
    .description('list a node under a section (`none` for no section)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExamples:\n  $ forumctl nodes section 3 1\n  $ forumctl nodes section 3 none')
    .action(
      action(runtime, async (context, nodeArg: string, sectionArg: string, options: { reason?: string }) => {
        const nodeId = idArgument(nodeArg, 'node-id');
        const sectionId = sectionArg === 'none' ? null : idArgument(sectionArg, 'section-id');
        const { useCases, wire } = context.session;
        const changed = await needing(context, 'placing nodes in sections is for administrators', () =>
          useCases.setNodeSection.execute(context.actor, nodeId, sectionId, reasonOf(options)),
        );
        const node = (await useCases.nodes.get(nodeId, { actor: context.actor })).result!;
        const where = node.section ? `section ${node.section.name} (id ${node.section.id})` : 'no section';
        return {
          json: wire.node(node),
          text: changed ? `node ${node.name} (id ${node.id}) is now in ${where}` : `node ${node.name} is already in ${where}`,
        };
      }),
    );

  withAccessOptions(nodes.command('access <node-id>'))
    .description('who may read, start topics, reply and moderate in a node; without options, as it is (administrators)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl nodes access 3\n  $ forumctl nodes access 3 --read members' +
        '\n  $ forumctl nodes access 4 --topics staff --replies members' +
        '\n  $ forumctl nodes access 5 --read ruby-team --topics ruby-team --replies ruby-team --moderators ruby-team',
    )
    .action(
      action(runtime, async (context, nodeArg: string, options: AccessOptions & { reason?: string }) => {
        const nodeId = idArgument(nodeArg, 'node-id');
        const change = accessChange(options);
        const access = await needing(context, 'node access is for administrators', () =>
          context.session.useCases.setNodeAccess.execute(context.actor, nodeId, change, reasonOf(options)),
        );
        return { json: { node_id: nodeId, ...access }, text: `node ${nodeId}: ${accessText(access)}` };
      }),
    );

  return nodes;
}
