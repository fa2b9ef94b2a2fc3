import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { action, confirmed, idArgument, OK_RESULT } from './shared.js';

/** Moderation of topics, through the same use cases and policy as the HTTP API. */
export function topicsCommand(runtime: CliRuntime): Command {
  const topics = new Command('topics').description('topic moderation');

  topics
    .command('ban <id>')
    .description('move a topic to NoPoint and lock its node (administrators)')
    .addHelpText('after', '\nExample:\n  $ forumctl topics ban 42 --yes')
    .action(
      action(runtime, async (context, id: string) => {
        const topicId = idArgument(id, 'id');
        await confirmed(context, `Ban topic ${topicId}?`);
        await context.session.useCases.topicAction.execute(context.actor, topicId, 'ban');
        return OK_RESULT(`topic ${topicId} banned`);
      }),
    );

  topics
    .command('delete <id>')
    .description('delete a topic (soft; recorded with who deleted it)')
    .addHelpText('after', '\nExample:\n  $ forumctl topics delete 42 --as alice --yes')
    .action(
      action(runtime, async (context, id: string) => {
        const topicId = idArgument(id, 'id');
        await confirmed(context, `Delete topic ${topicId}?`);
        await context.session.useCases.deleteTopic.execute(context.actor, topicId);
        return OK_RESULT(`topic ${topicId} deleted by ${context.actor.login}`);
      }),
    );

  topics
    .command('move <id>')
    .description("relocate a topic to another node and lock it there, as an administrator's update does")
    .requiredOption('--node <node-id>', 'the node to move it to')
    .addHelpText('after', '\nExample:\n  $ forumctl topics move 42 --node 7')
    .action(
      action(runtime, async (context, id: string, options: { node: string }) => {
        const topicId = idArgument(id, 'id');
        const moved = await context.session.useCases.moveTopic.execute(context.actor, topicId, idArgument(options.node, 'node'));
        return {
          json: { ok: 1, moved },
          text: moved ? `topic ${topicId} moved to node ${options.node}` : `topic ${topicId} already in node ${options.node}`,
        };
      }),
    );

  for (const [verb, type, done] of [
    ['excellent', 'excellent', 'marked excellent'],
    ['unexcellent', 'unexcellent', 'no longer excellent'],
    ['close', 'close', 'closed'],
    ['open', 'open', 'reopened'],
  ] as const) {
    topics
      .command(`${verb} <id>`)
      .description(`the ${type} action of POST /topics/:id/action`)
      .addHelpText('after', `\nExample:\n  $ forumctl topics ${verb} 42`)
      .action(
        action(runtime, async (context, id: string) => {
          const topicId = idArgument(id, 'id');
          await context.session.useCases.topicAction.execute(context.actor, topicId, type);
          return OK_RESULT(`topic ${topicId} ${done}`);
        }),
      );
  }

  return topics;
}
