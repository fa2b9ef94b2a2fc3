import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import type { GroupView } from '../../src/application/read-models.js';
import { NotFound } from '../../src/domain/shared/errors.js';
import { action, confirmed, needing, REASON_FLAGS, REASON_HELP, reasonOf } from './shared.js';

const MANAGING = 'managing groups is for administrators';

const groupJson = (group: GroupView) => ({
  id: group.id,
  name: group.name,
  title: group.title,
  hidden: group.hidden,
  members_count: group.membersCount,
});

/** Groups of members (contract §23): nodes give them the right to read, start topics, reply or moderate there. */
export function groupsCommand(runtime: CliRuntime): Command {
  const groups = new Command('groups')
    .description('groups of members (who may read and write in a node: forumctl nodes access)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl groups create staff-room --title "Staff room" --hidden\n  $ forumctl groups add staff-room alice bob',
    );

  groups
    .command('create <name>')
    .description('create a group (administrators)')
    .option('--title <title>', 'a title people read')
    .option('--hidden', 'only administrators see that it exists and who is in it')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl groups create rubyists --title "Ruby people"')
    .action(
      action(runtime, async (context, name: string, options: { title?: string; hidden?: boolean; reason?: string }) => {
        const input = { name, ...(options.title !== undefined ? { title: options.title } : {}), hidden: options.hidden ?? false };
        const group = await needing(context, MANAGING, () =>
          context.session.useCases.createGroup.execute(context.actor, input, reasonOf(options)),
        );
        return {
          json: groupJson({ ...group, membersCount: 0 }),
          text: `created group ${group.name} (id ${group.id})${group.hidden ? ', hidden' : ''}`,
        };
      }),
    );

  groups
    .command('list')
    .description('list groups by name, hidden ones included (administrators)')
    .addHelpText('after', '\nExample:\n  $ forumctl groups list --json')
    .action(
      action(runtime, async (context) => {
        if (context.actor.role !== 'admin') await needing(context, MANAGING, () => Promise.reject(new NotFound('groups')));
        const list = await context.session.useCases.groups.list();
        return {
          json: { groups: list.map(groupJson) },
          text: table(
            ['id', 'name', 'title', 'members', 'hidden'],
            list.map((g) => [g.id, g.name, g.title, g.membersCount, g.hidden]),
          ),
        };
      }),
    );

  groups
    .command('show <name>')
    .description('a group and its members (administrators)')
    .addHelpText('after', '\nExample:\n  $ forumctl groups show staff-room')
    .action(
      action(runtime, async (context, name: string) => {
        const group = context.actor.role === 'admin' ? await context.session.useCases.groups.show(name) : null;
        if (!group) throw new NotFound(`group ${name}`);
        const members = group.members.map((member) => member.login);
        return {
          json: { ...groupJson(group), members: group.members.map((m) => ({ id: m.id, login: m.login, name: m.name })) },
          text: [
            `group ${group.name} (id ${group.id})${group.hidden ? ', hidden' : ''}`,
            ...(group.title ? [`title: ${group.title}`] : []),
            `members (${members.length}): ${members.join(', ') || 'none'}`,
          ].join('\n'),
        };
      }),
    );

  groups
    .command('rename <name> <new-name>')
    .description('rename a group (administrators)')
    .option('--title <title>', 'a new title too')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl groups rename rubyists ruby-people')
    .action(
      action(runtime, async (context, name: string, newName: string, options: { title?: string; reason?: string }) => {
        const change = { name: newName, ...(options.title !== undefined ? { title: options.title } : {}) };
        const group = await needing(context, MANAGING, () =>
          context.session.useCases.updateGroup.execute(context.actor, name, change, reasonOf(options)),
        );
        return { json: { id: group.id, name: group.name, title: group.title }, text: `group ${name} is now ${group.name}` };
      }),
    );

  groups
    .command('delete <name>')
    .description('delete a group; nodes that named it forget it (administrators)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl groups delete rubyists --yes')
    .action(
      action(runtime, async (context, name: string, options: { reason?: string }) => {
        await confirmed(context, `Delete group ${name}? Nodes that name it forget it.`);
        await needing(context, MANAGING, () =>
          context.session.useCases.deleteGroup.execute(context.actor, name, reasonOf(options)),
        );
        return { json: { name, deleted: true }, text: `deleted group ${name}` };
      }),
    );

  for (const [verb, preposition] of [
    ['add', 'to'],
    ['remove', 'from'],
  ] as const) {
    groups
      .command(`${verb} <name> <logins...>`)
      .description(`${verb} members ${preposition} a group (administrators)`)
      .option(REASON_FLAGS, REASON_HELP)
      .addHelpText('after', `\nExample:\n  $ forumctl groups ${verb} staff-room alice bob`)
      .action(
        action(runtime, async (context, name: string, logins: string[], options: { reason?: string }) => {
          const changed = await needing(context, MANAGING, () =>
            context.session.useCases.changeGroupMembers.execute(context.actor, name, verb, logins, reasonOf(options)),
          );
          const what = verb === 'add' ? 'added to' : 'removed from';
          return {
            json: { group: name, [verb === 'add' ? 'added' : 'removed']: changed },
            text: changed.length > 0 ? `${what} ${name}: ${changed.join(', ')}` : `nothing changed in ${name}`,
          };
        }),
      );
  }

  return groups;
}
