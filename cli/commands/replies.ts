import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { Forbidden, NotFound } from '../../src/domain/shared/errors.js';
import { policy } from '../../src/domain/shared/policy.js';
import { READERS, readerOf, replyVisibleTo } from '../../src/domain/visibility/visibility.js';
import type { Viewer } from '../../src/domain/users/role.js';
import { readAll } from '../../src/application/inputs.js';
import { ListRepliesParams } from '../../src/application/replies/list-replies.js';
import type { ReplyView } from '../../src/application/read-models.js';
import { clip, table, when } from '../output.js';
import {
  action,
  confirmed,
  denied,
  idArgument,
  needing,
  noteMore,
  REASON_FLAGS,
  REASON_HELP,
  reasonOf,
  replyResult,
} from './shared.js';

/**
 * Whether the actor sees the reply as deleted: it is, or it is held or hidden from them (contract §18), as over HTTP.
 */
const deletedFor = (actor: Viewer, reply: ReplyView) =>
  !replyVisibleTo(READERS.post, readerOf(actor), {
    userId: reply.user.id,
    visibility: reply.visibility,
    deleted: reply.deleted,
    systemEvent: reply.action !== null,
  });

/**
 * What a reply is, besides a reply, to the actor: deleted, held or hidden (to those who see it so), or the record of
 * a moderator's act (`system: ban`).
 */
const replyState = (actor: Viewer, reply: ReplyView) =>
  [
    deletedFor(actor, reply) && 'deleted',
    !deletedFor(actor, reply) && reply.visibility !== 'public' && reply.visibility,
    reply.action && `system: ${reply.action}`,
  ]
    .filter(Boolean)
    .join(', ');

/** One line of a reply's text (none for one the actor sees as deleted, as over HTTP). */
const excerpt = (actor: Viewer, reply: ReplyView, width = 60) => (deletedFor(actor, reply) ? '' : clip(reply.body, width));

export function repliesCommand(runtime: CliRuntime): Command {
  const replies = new Command('replies')
    .description("a topic's replies, and their moderation")
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl replies list 42\n  $ forumctl replies delete 1234 --reason "off topic" --yes',
    );

  replies
    .command('list <topic-id>')
    .description(
      "a topic's replies by floor, as GET /topics/:id/replies lists them to the actor: deleted ones (without their text) " +
        'and system events in place; a page that leaves some out says so on stderr',
    )
    .option('--offset <n>', 'skip this many', '0')
    .option('--limit <n>', 'at most this many (1–1000)', '20')
    .addHelpText('after', '\nExamples:\n  $ forumctl replies list 42 --offset 20\n  $ forumctl replies list 42 --as alice --json')
    .action(
      action(runtime, async (context, id: string, options: { offset: string; limit: string }) => {
        const topicId = idArgument(id, 'topic-id');
        const page = readAll(ListRepliesParams, { offset: options.offset, limit: options.limit });
        const list = async (offset: number, limit: number) => {
          try {
            return (await context.session.useCases.listReplies.execute({ actor: context.actor }, { topicId, offset, limit }))
              .result;
          } catch (error) {
            throw error instanceof NotFound ? new NotFound(`topic ${topicId}`) : error;
          }
        };
        const { replies: shown, likedReplyIds } = await list(page.offset, page.limit);
        // A full page may leave later replies out: one more read tells, and stderr says so.
        const more =
          shown.length === page.limit && page.limit > 0 && (await list(page.offset + page.limit, 1)).replies.length > 0;
        noteMore(context, more, 'replies', `the next page: --offset ${page.offset + page.limit} --limit ${page.limit}`);
        return {
          json: {
            replies: shown.map((reply) => context.session.wire.reply(reply, context.actor)),
            meta: { user_liked_reply_ids: likedReplyIds },
          },
          text: table(
            ['floor', 'id', 'author', 'created', 'state', 'text'],
            shown.map((reply, i) => [
              `#${page.offset + i + 1}`,
              reply.id,
              reply.user.login,
              when(reply.createdAt),
              replyState(context.actor, reply),
              excerpt(context.actor, reply),
            ]),
          ),
        };
      }),
    );

  replies
    .command('delete <id>')
    .description("delete a reply (soft: it keeps its floor, shown as deleted); the topic's counters are recomputed")
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl replies delete 1234 --reason "off topic" --yes')
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const replyId = idArgument(id, 'id');
        const reply = await context.session.useCases.replies.detail(replyId, context.actor);
        if (!reply) throw new NotFound(`reply ${replyId}`);
        if (reply.action !== null) {
          throw new Forbidden(
            `Access denied: reply ${replyId} records a moderator's act (${reply.action}), which nobody deletes`,
          );
        }
        const needs = `deleting reply ${replyId} is for administrators, its node's moderators or its author (${reply.user.login})`;
        // Before the question, the one rule is asked with the reply's own facts (the read model's: whether the actor
        // moderates its node; a system event was refused above, saying why); the use case asks it again, and decides.
        const facts = { userId: reply.user.id, isSystemEvent: false, moderated: reply.moderated ?? false };
        if (!policy.destroyReply(context.actor, facts)) throw denied(context, needs);
        await confirmed(
          context,
          `Delete reply ${replyId} by ${reply.user.login} on topic ${reply.topicId} "${clip(reply.topicTitle, 50)}" ("${excerpt(context.actor, reply, 50)}")?`,
        );
        await needing(context, needs, () =>
          context.session.useCases.deleteReply.execute(context.actor, replyId, reasonOf(options)),
        );
        return replyResult(context, replyId, `reply ${replyId} deleted by ${context.actor.login}`);
      }),
    );

  return replies;
}
