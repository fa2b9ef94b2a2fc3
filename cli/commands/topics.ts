import { Command } from 'commander';
import type { ActionContext, CliRuntime } from '../runtime.js';
import { InvalidInput, NotFound } from '../../src/domain/shared/errors.js';
import { policy } from '../../src/domain/shared/policy.js';
import { NO_POINT_NODE_NAME } from '../../src/domain/nodes/node.js';
import { readAll, read, oneOf } from '../../src/application/inputs.js';
import { ListTopicsParams } from '../../src/application/topics/list-topics.js';
import { TOPIC_LIST_TYPES, type NodeView, type TopicDetailView, type TopicView } from '../../src/application/read-models.js';
import { clip, table, when } from '../output.js';
import {
  action,
  confirmed,
  denied,
  idArgument,
  integerOption,
  needing,
  noteMore,
  REASON_FLAGS,
  REASON_HELP,
  reasonOf,
  topicResult,
} from './shared.js';

/**
 * A topic's states, as a moderator reads them: `banned, closed, pinned` (banned: moved to NoPoint); `held` or
 * `hidden` while it waits for review; `deleted` where shown.
 */
export function topicState(topic: TopicView, deleted = false): string {
  const states = [
    deleted && 'deleted',
    topic.visibility !== 'public' && topic.visibility,
    topic.nodeName === NO_POINT_NODE_NAME && 'banned',
    topic.closedAt !== null && 'closed',
    topic.grade === 'excellent' && 'excellent',
    topic.suggestedAt !== null && 'pinned',
  ].filter(Boolean);
  return states.join(', ');
}

/** A topic named in a question: `topic 42 "How to …" by alice (node Ruby)`. */
export const topicName = (topic: TopicView) =>
  `topic ${topic.id} "${clip(topic.title, 60)}" by ${topic.user.login} (node ${topic.nodeName})`;

/** A visible (not deleted) topic as the actor reads it over HTTP, or not found (exit 4), before anything is asked. */
export async function visibleTopic(context: ActionContext, id: number): Promise<TopicDetailView> {
  const topic = await context.session.useCases.topics.detail(id, context.actor);
  if (!topic) throw new NotFound(`topic ${id}`);
  return topic;
}

async function existingNode(context: ActionContext, id: number): Promise<NodeView> {
  const node = (await context.session.useCases.nodes.get(id, { actor: context.actor })).result;
  if (!node) throw new NotFound(`node ${id}`);
  return node;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The first lines of a body, for `topics show`. */
function bodyExcerpt(body: string, lines = 12): string {
  const all = body.trimEnd().split(/\r?\n/);
  return all.length > lines
    ? [...all.slice(0, lines), `… (${all.length - lines} more lines; --json has the whole body)`].join('\n')
    : all.join('\n');
}

/** Moderation of topics, through the same use cases and policy as the HTTP API. */
export function topicsCommand(runtime: CliRuntime): Command {
  const topics = new Command('topics')
    .description('find topics and moderate them')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl topics list --node 7\n  $ forumctl topics show 42\n  $ forumctl topics ban 42 --reason spam --yes\n' +
        '  $ forumctl topics move 42 --node 7',
    );

  topics
    .command('list')
    .description(
      'a page of topics as GET /topics lists them to the actor (deleted ones never; banned ones only with --node of NoPoint); ' +
        'a page that leaves some out says so on stderr',
    )
    .option('--node <id>', "only this node's topics (hidden or not, without the actor's blocks)")
    .option('--type <type>', `the order: ${TOPIC_LIST_TYPES.join(' | ')}`, 'last_actived')
    .option('--offset <n>', 'skip this many', '0')
    .option('--limit <n>', 'at most this many (1–150)', '20')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl topics list --node 7 --type recent --limit 50\n  $ forumctl topics list --as alice --json',
    )
    .action(
      action(runtime, async (context, options: { node?: string; type: string; offset: string; limit: string }) => {
        const type = read(oneOf(TOPIC_LIST_TYPES), options.type, 'type');
        const page = readAll(ListTopicsParams, { type, node_id: options.node, offset: options.offset, limit: options.limit });
        const nodeId = page.node_id ?? null;
        if (nodeId !== null) await existingNode(context, nodeId);
        // One more than asked tells whether the page left some out.
        const input = { type: page.type, nodeId, offset: page.offset, limit: page.limit + 1 };
        const { result } = await context.session.useCases.listTopics.execute({ actor: context.actor }, input);
        const list = result.slice(0, page.limit);
        const next = `--offset ${page.offset + page.limit} --limit ${page.limit}`;
        noteMore(context, result.length > page.limit, 'topics', `the next page: ${next}`);
        return {
          json: { topics: list.map((topic) => context.session.wire.topic(topic, context.actor)) },
          text: table(
            ['id', 'title', 'node', 'author', 'replies', 'state', 'last reply'],
            list.map((t) => [t.id, t.title, t.nodeName, t.user.login, t.repliesCount, topicState(t), when(t.repliedAt)]),
            [undefined, 50, 16],
          ),
        };
      }),
    );

  topics
    .command('show <id>')
    .description(
      'one topic: title, node, author, counts, state, dates and the start of its body; as GET /topics/:id shows it ' +
        'to the actor (no hit counted); an administrator sees deleted topics too',
    )
    .addHelpText('after', '\nExamples:\n  $ forumctl topics show 42\n  $ forumctl topics show 42 --as alice --json')
    .action(
      action(runtime, async (context, id: string) => {
        const topicId = idArgument(id, 'id');
        const { topics } = context.session.useCases;
        const found =
          context.actor.role === 'admin'
            ? await topics.detailInAnyState(topicId)
            : await topics.detail(topicId, context.actor).then((topic) => topic && { topic, deleted: false });
        if (!found) throw new NotFound(`topic ${topicId}`);
        const { topic, deleted } = found;
        const shown = context.session.wire.topicDetail(topic, context.actor);
        const lastReply = topic.lastReplyUserLogin ? ` (last by ${topic.lastReplyUserLogin}, ${when(topic.repliedAt)})` : '';
        const text = [
          `topic ${topic.id}: ${topic.title}`,
          `node:     ${topic.nodeName} (id ${topic.nodeId})${topic.lockNode ? ', locked there' : ''}`,
          `author:   ${topic.user.login} (id ${topic.user.id})`,
          `state:    ${topicState(topic, deleted) || 'open'}`,
          `replies:  ${topic.repliesCount}${lastReply}`,
          `likes:    ${topic.likesCount}   hits: ${topic.hits}`,
          `created:  ${when(topic.createdAt)}   updated: ${when(topic.updatedAt)}${topic.closedAt ? `   closed: ${when(topic.closedAt)}` : ''}`,
          '',
          bodyExcerpt(topic.body),
        ].join('\n');
        return { json: deleted ? { ...shown, deleted: true } : shown, text };
      }),
    );

  topics
    .command('ban <id>')
    .description('move a topic to NoPoint and lock its node (administrators, and moderators of its node)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl topics ban 42 --reason "spam" --yes')
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const topicId = idArgument(id, 'id');
        const reason = reasonOf(options);
        const topic = await visibleTopic(context, topicId);
        const needs = 'banning topics is for administrators';
        if (!policy.banTopic(context.actor, { moderated: topic.moderated })) throw denied(context, needs);
        await confirmed(context, `Ban ${topicName(topic)}?`);
        await needing(context, needs, () => context.session.useCases.topicAction.execute(context.actor, topicId, 'ban', reason));
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
        const topic = await visibleTopic(context, topicId);
        const needs = `deleting topic ${topicId} is for administrators, or its author (${topic.user.login}) while nobody else has replied`;
        const facts = { userId: topic.user.id, hasRepliesFromOthers: topic.hasRepliesFromOthers, moderated: topic.moderated };
        if (!policy.destroyTopic(context.actor, facts)) throw denied(context, needs);
        await confirmed(context, `Delete ${topicName(topic)}, with its ${count(topic.repliesCount, 'reply', 'replies')}?`);
        await needing(context, needs, () => context.session.useCases.deleteTopic.execute(context.actor, topicId, reason));
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
            const nodeId = idArgument(options.node, 'node');
            const moved = await needing(context, 'moving topics is for administrators', () =>
              context.session.useCases.moveTopic.execute(context.actor, topicId, nodeId, reason),
            );
            const node = await existingNode(context, nodeId);
            return topicResult(
              context,
              topicId,
              `topic ${topicId} ${moved ? 'moved to' : 'already in'} node ${node.id} "${node.name}"`,
            );
          }
          if (id === undefined && options.node === undefined && options.fromNode !== undefined && options.toNode !== undefined) {
            const fromNodeId = idArgument(options.fromNode, 'from-node');
            const toNodeId = idArgument(options.toNode, 'to-node');
            const batchSize = integerOption(options.batchSize, 'batch-size', 1)!;
            const [from, to] = [await existingNode(context, fromNodeId), await existingNode(context, toNodeId)];
            const needs = 'moving topics between nodes is for administrators';
            if (!policy.changeLockedNode(context.actor)) throw denied(context, needs);
            await confirmed(
              context,
              `Move all ${count(from.topicsCount, 'topic')} of node ${from.id} "${from.name}" to node ${to.id} "${to.name}"?`,
            );
            const progress = context.io.progress();
            const bar = progress.bar('moving topics');
            const summary = await needing(context, needs, () =>
              context.session.useCases.moveNodeTopics.execute(
                context.actor,
                { fromNodeId, toNodeId, batchSize, reason },
                (done, total) => bar.update(done, total),
              ),
            ).finally(() => progress.stop());
            return {
              json: summary,
              text: `moved ${count(summary.moved, 'topic')} from node ${from.id} "${from.name}" to node ${to.id} "${to.name}"`,
            };
          }
          throw new InvalidInput('move', 'give either <id> --node <node-id>, or --from-node <node-id> --to-node <node-id>');
        },
      ),
    );

  for (const [verb, type, done, needs] of [
    ['excellent', 'excellent', 'marked excellent', 'marking topics excellent is for administrators'],
    ['unexcellent', 'unexcellent', 'no longer excellent', 'marking topics excellent is for administrators'],
    ['close', 'close', 'closed', "closing a topic is for administrators and the topic's author"],
    ['open', 'open', 'reopened', "reopening a topic is for administrators and the topic's author"],
    ['pin', 'suggest', 'pinned to the top of the front page', 'pinning topics is for administrators'],
    ['unpin', 'unsuggest', 'no longer pinned', 'pinning topics is for administrators'],
  ] as const) {
    topics
      .command(`${verb} <id>`)
      .description(`the ${type} action of POST /topics/:id/action`)
      .option(REASON_FLAGS, REASON_HELP)
      .addHelpText('after', `\nExample:\n  $ forumctl topics ${verb} 42`)
      .action(
        action(runtime, async (context, id: string, options: { reason?: string }) => {
          const topicId = idArgument(id, 'id');
          await needing(context, needs, () =>
            context.session.useCases.topicAction.execute(context.actor, topicId, type, reasonOf(options)),
          );
          return topicResult(context, topicId, `topic ${topicId} ${done}`);
        }),
      );
  }

  return topics;
}
