import { Command } from 'commander';
import { REVIEW_ACTIONS, type ReviewAction } from '../../src/domain/events.js';
import { REVIEW_STATUSES, ResolveReviewParams } from '../../src/application/review/review-queue.js';
import type { ReviewItemView } from '../../src/application/review/ports.js';
import { requireResolvable } from '../../src/domain/review/review-item.js';
import { oneOf, read } from '../../src/application/inputs.js';
import type { CliRuntime } from '../runtime.js';
import { clip, table, when } from '../output.js';
import {
  action,
  confirmed,
  namingNotFound,
  idArgument,
  integerOption,
  needing,
  noteMore,
  REASON_FLAGS,
  REASON_HELP,
  reasonOf,
} from './shared.js';

const NEEDS = 'the review queue is for administrators';
/** The width of `review list`'s post column. */
const POST_WIDTH = 44;

/**
 * The post of an item, in a few words: `reply 314 in topic 42 "How …"` or `topic 42 "How …"`, the topic's title cut
 * so that the whole fits in `width` columns with its closing quote (a table's column would cut the quote off).
 */
function postName(item: ReviewItemView, width = 64): string {
  // A private message (contract §24) is named by itself alone: nothing of its conversation, its title included.
  if (item.message) return `private message (${item.targetType.toLowerCase()} ${item.targetId})`;
  const [what, title] = item.reply
    ? [`reply ${item.reply.id} in topic ${item.reply.topicId}`, item.reply.topicTitle]
    : item.topic
      ? [`topic ${item.topic.view.id}`, item.topic.view.title]
      : [`${item.targetType.toLowerCase()} ${item.targetId}`, null];
  return title === null ? what : `${what} "${clip(title, Math.max(width - what.length - 3, 8))}"`;
}

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

/** What the item's post says, on one line (a deleted post's text stays readable to a reviewer). */
function excerpt(item: ReviewItemView): string {
  return postBody(item).replace(/\s+/g, ' ').trim();
}

/** What the item's post says: a reply's, a topic's, or a private message's. */
function postBody(item: ReviewItemView): string {
  return item.reply?.body ?? item.topic?.view.body ?? item.message?.body ?? '';
}

/** The flags in short: `3: spam ×2, other`. */
function flagSummary(item: ReviewItemView): string {
  if (item.kind === 'hold') return '';
  const counts = new Map<string, number>();
  for (const flag of item.flags) counts.set(flag.reason, (counts.get(flag.reason) ?? 0) + 1);
  const reasons = [...counts].map(([reason, n]) => (n > 1 ? `${reason} ×${n}` : reason)).join(', ');
  return `${item.flags.length}: ${reasons}`;
}

/** Whether the item's post is gone, held or hidden now. */
function postState(item: ReviewItemView): string {
  const deleted = item.reply ? item.reply.deleted : item.message ? item.message.deleted : (item.topic?.deleted ?? true);
  if (deleted) return 'deleted';
  if (item.message) return 'a private message';
  return (item.reply ?? item.topic?.view)?.visibility ?? '';
}

/** What each action does, as `review --help` says it. */
const ACTIONS: Record<ReviewAction, string> = {
  agree: 'a flagged post: agree with its flags, delete it (with --silence-days, silence its author too)',
  disagree: 'a flagged post: show it again; its flags count no more',
  approve: 'a held post: publish it, as if posted now (its notifications, counts and webhooks follow)',
  reject: 'a held post: delete it; it has set off nothing (with --silence-days, silence its author too)',
  spammer: 'either: delete every topic and reply of the author, block the account and end its tokens; its other items go too',
};

/**
 * The question a destructive resolution asks on a terminal (contract §9; `--yes` skips it), naming what it deletes.
 */
const QUESTIONS: Partial<Record<ReviewAction, (item: ReviewItemView, silenceDays: number | undefined) => string>> = {
  agree: (item, silence) =>
    `Delete ${postName(item)} by ${item.user.login}, agreeing with ${item.flags.length === 1 ? 'its flag' : `its ${item.flags.length} flags`}${silencing(item, silence)}?`,
  reject: (item, silence) => `Delete the held ${postName(item)} by ${item.user.login}${silencing(item, silence)}?`,
  spammer: (item) =>
    `Delete every topic and reply of ${item.user.login}, block the account and end its tokens (from ${postName(item)})?`,
};

const silencing = (item: ReviewItemView, silenceDays: number | undefined) =>
  silenceDays === undefined ? '' : `, and silence ${item.user.login} for ${days(silenceDays)}`;

/** forumctl review (contract §18): the queue of flagged and held posts, and its resolutions. */
export function reviewCommand(runtime: CliRuntime): Command {
  const review = new Command('review')
    .description('the review queue: flagged posts and new members’ held posts (administrators)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl review list\n  $ forumctl review show 12\n  $ forumctl review agree 12 --reason spam --silence-days 3',
    );

  review
    .command('list')
    .description('pending items oldest first (what to look at next), or resolved ones most recent first')
    .option('--status <status>', 'pending or resolved', 'pending')
    .option('--offset <n>', 'how many to skip', '0')
    .option('--limit <n>', 'how many (1–150)', '20')
    .addHelpText('after', '\nExamples:\n  $ forumctl review list --limit 50\n  $ forumctl review list --status resolved --json')
    .action(
      action(runtime, async (context, options: { status: string; offset: string; limit: string }) => {
        // Read here too: the header it prints depends on it.
        const status = read(oneOf(REVIEW_STATUSES), options.status, 'status');
        const offset = integerOption(options.offset, 'offset', 0)!;
        const limit = integerOption(options.limit, 'limit', 1, 150)!;
        // One more than asked tells whether the page left some out.
        const items = await needing(context, NEEDS, () =>
          context.session.useCases.listReviewItems.execute(context.actor, { status, offset, limit: limit + 1 }),
        );
        const page = items.slice(0, limit);
        noteMore(context, items.length > limit, 'items', `the next page: --offset ${offset + limit} --limit ${limit}`);
        const resolved = status === 'resolved';
        const rows = page.map((item) => [
          item.id,
          item.kind,
          postName(item, POST_WIDTH),
          item.user.login,
          resolved ? `${item.resolution} by ${item.resolvedBy?.login ?? ''}` : flagSummary(item),
          when(resolved ? item.resolvedAt : item.createdAt),
          excerpt(item),
        ]);
        return {
          json: { items: page.map((item) => context.session.wire.reviewItem(item, context.actor)) },
          text: table(
            ['id', 'kind', 'post', 'author', resolved ? 'resolution' : 'flags', resolved ? 'resolved' : 'since', 'text'],
            rows,
            [undefined, undefined, POST_WIDTH, 16, 24, undefined, 40],
          ),
        };
      }),
    );

  review
    .command('show <id>')
    .description('one item: its post in full, its author, every flag with its message, and how it was resolved')
    .addHelpText('after', '\nExample:\n  $ forumctl review show 12')
    .action(
      action(runtime, async (context, id: string) => {
        const itemId = idArgument(id, 'id');
        const item = await needing(context, NEEDS, () =>
          namingNotFound('review item', itemId, () => context.session.useCases.showReviewItem.execute(context.actor, itemId)),
        );
        const lines = [
          `review item ${item.id}: ${item.kind === 'hold' ? 'a held post, waiting for approval' : 'a flagged post'}`,
          `post:     ${postName(item, Infinity)} (${postState(item)})`,
          `author:   ${item.user.login} (id ${item.user.id})`,
          `status:   ${item.status}${item.resolution ? `: ${item.resolution} by ${item.resolvedBy?.login} at ${when(item.resolvedAt)}` : ''}`,
          `since:    ${when(item.createdAt)}`,
          ...(item.flags.length > 0 ? ['', 'flags:'] : []),
          ...item.flags.map(
            (flag) => `  ${when(flag.createdAt)}  ${flag.user.login}: ${flag.reason}${flag.message ? ` — ${flag.message}` : ''}`,
          ),
          '',
          postBody(item),
          ...(item.message ? ['', 'Only this message of its conversation is shown; this look is written in the audit log.'] : []),
        ];
        return { json: context.session.wire.reviewItem(item, context.actor), text: lines.join('\n').trimEnd() };
      }),
    );

  for (const verb of REVIEW_ACTIONS) {
    const command = review.command(`${verb} <id>`).description(`${ACTIONS[verb]} (audited)`).option(REASON_FLAGS, REASON_HELP);
    if (verb === 'agree' || verb === 'reject') command.option('--silence-days <n>', 'silence the author for this many days');
    command.addHelpText(
      'after',
      `\nExample:\n  $ forumctl review ${verb} 12 --reason "${verb === 'disagree' ? 'fine as it is' : 'spam'}"`,
    );
    command.action(
      action(runtime, async (context, id: string, options: { reason?: string; silenceDays?: string }) => {
        const itemId = idArgument(id, 'id');
        const reason = reasonOf(options);
        const { useCases } = context.session;
        const shown = await needing(context, NEEDS, () =>
          namingNotFound('review item', itemId, () => useCases.showReviewItem.execute(context.actor, itemId)),
        );
        const ask = QUESTIONS[verb];
        if (ask) {
          // What would be refused is refused before the question (exit 2), as the use case will refuse it.
          requireResolvable({ ...shown, topicId: shown.reply?.topicId ?? shown.targetId, userId: shown.user.id }, verb);
          const silenceDays = read(ResolveReviewParams.shape.silence_days, options.silenceDays, 'silence_days');
          await confirmed(context, ask(shown, silenceDays));
        }
        await needing(context, NEEDS, () =>
          namingNotFound('review item', itemId, () =>
            useCases.resolveReview.execute(context.actor, itemId, { action: verb, reason, silence_days: options.silenceDays }),
          ),
        );
        const item = await useCases.showReviewItem.execute(context.actor, itemId);
        // The silence it set off is said too: the moderator sees what the command did, not only the resolution.
        const silenced =
          options.silenceDays === undefined ? '' : `; ${item.user.login} is silenced for ${days(Number(options.silenceDays))}`;
        return {
          json: context.session.wire.reviewItem(item, context.actor),
          text: `review item ${itemId} resolved: ${verb} (${postName(item)}, by ${item.user.login})${silenced}`,
        };
      }),
    );
  }

  return review;
}
