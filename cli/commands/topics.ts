import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { InvalidInput } from '../../src/domain/shared/errors.js';
import { action, confirmed, idArgument, integerOption, REASON_FLAGS, REASON_HELP, reasonOf, topicResult } from './shared.js';

/** Moderation of topics, through the same use cases and policy as the HTTP API. */
export function topicsCommand(runtime: CliRuntime): Command {
  const topics = new Command('topics')
    .description('topic moderation')
    .addHelpText('after', '\nExamples:\n  $ forumctl topics ban 42 --reason spam --yes\n  $ forumctl topics move 42 --node 7');

  topics
    .command('ban <id>')
    .description('move a topic to NoPoint and lock its node (administrators)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl topics ban 42 --reason "spam" --yes')
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const topicId = idArgument(id, 'id');
        const reason = reasonOf(options);
        await confirmed(context, `Ban topic ${topicId}?`);
        await context.session.useCases.topicAction.execute(context.actor, topicId, 'ban', reason);
        return topicResult(context, topicId, `topic ${topicId} banned`);
      }),
    );

  topics
    .command('delete <id>')
    .description('delete a topic (soft; recorded with who deleted it)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl topics delete 42 --as alice --yes')
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const topicId = idArgument(id, 'id');
        const reason = reasonOf(options);
        await confirmed(context, `Delete topic ${topicId}?`);
        await context.session.useCases.deleteTopic.execute(context.actor, topicId, reason);
        return topicResult(context, topicId, `topic ${topicId} deleted by ${context.actor.login}`);
      }),
    );

  topics
    .command('move [id]')
    .description(
      "relocate a topic to another node and lock it there, as an administrator's update does; " +
        'or, with --from-node and --to-node, every topic of a node, in batches',
    )
    .option('--node <node-id>', 'the node to move the topic to')
    .option('--from-node <node-id>', 'bulk: the node to empty')
    .option('--to-node <node-id>', 'bulk: the node to move its topics to')
    .option('--batch-size <n>', 'bulk: topics per transaction', '500')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl topics move 42 --node 7\n  $ forumctl topics move --from-node 3 --to-node 7 --yes --json',
    )
    .action(
      action(
        runtime,
        async (
          context,
          id: string | undefined,
          options: { node?: string; fromNode?: string; toNode?: string; batchSize: string; reason?: string },
        ) => {
          const reason = reasonOf(options);
          if (id !== undefined && options.node !== undefined && options.fromNode === undefined && options.toNode === undefined) {
            const topicId = idArgument(id, 'id');
            const moved = await context.session.useCases.moveTopic.execute(
              context.actor,
              topicId,
              idArgument(options.node, 'node'),
              reason,
            );
            return topicResult(
              context,
              topicId,
              moved ? `topic ${topicId} moved to node ${options.node}` : `topic ${topicId} already in node ${options.node}`,
            );
          }
          if (id === undefined && options.node === undefined && options.fromNode !== undefined && options.toNode !== undefined) {
            const fromNodeId = idArgument(options.fromNode, 'from-node');
            const toNodeId = idArgument(options.toNode, 'to-node');
            const batchSize = integerOption(options.batchSize, 'batch-size', 1)!;
            await confirmed(context, `Move every topic of node ${fromNodeId} to node ${toNodeId}?`);
            const progress = context.io.progress();
            const bar = progress.bar('moving topics');
            const summary = await context.session.useCases.moveNodeTopics
              .execute(context.actor, { fromNodeId, toNodeId, batchSize, reason }, (done, total) => bar.update(done, total))
              .finally(() => progress.stop());
            return { json: summary, text: `moved ${summary.moved} topic(s) from node ${fromNodeId} to node ${toNodeId}` };
          }
          throw new InvalidInput('move', 'give either <id> --node <node-id>, or --from-node <node-id> --to-node <node-id>');
        },
      ),
    );

  for (const [verb, type, done] of [
    ['excellent', 'excellent', 'marked excellent'],
    ['unexcellent', 'unexcellent', 'no longer excellent'],
    ['close', 'close', 'closed'],
    ['open', 'open', 'reopened'],
    ['pin', 'suggest', 'pinned to the top of the front page'],
    ['unpin', 'unsuggest', 'no longer pinned'],
  ] as const) {
    topics
      .command(`${verb} <id>`)
      .description(`the ${type} action of POST /topics/:id/action`)
      .option(REASON_FLAGS, REASON_HELP)
      .addHelpText('after', `\nExample:\n  $ forumctl topics ${verb} 42`)
      .action(
        action(runtime, async (context, id: string, options: { reason?: string }) => {
          const topicId = idArgument(id, 'id');
          await context.session.useCases.topicAction.execute(context.actor, topicId, type, reasonOf(options));
          return topicResult(context, topicId, `topic ${topicId} ${done}`);
        }),
      );
  }

  return topics;
}
