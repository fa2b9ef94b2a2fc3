import { Command } from 'commander';
import { REVIEW_ACTIONS, type ReviewAction } from '../../src/domain/events.js';
import type { ReviewItemView } from '../../src/application/review/review-queue.js';
import type { CliRuntime } from '../runtime.js';
import { clip, table, when } from '../output.js';
import { action, idArgument, integerOption, needing, noteMore, REASON_FLAGS, REASON_HELP, reasonOf } from './shared.js';

const NEEDS = 'the review queue is for administrators';

/** The post of an item, in a few words: `reply 314 in topic 42` or `topic 42 "How …"`. */
function postName(item: ReviewItemView): string {
  if (item.reply) return `reply ${item.reply.id} in topic ${item.reply.topicId} "${clip(item.reply.topicTitle, 40)}"`;
  if (item.topic) return `topic ${item.topic.view.id} "${clip(item.topic.view.title, 50)}"`;
  return `${item.targetType.toLowerCase()} ${item.targetId}`;
}

/** What the item's post says, on one line (a deleted post's text stays readable to a reviewer). */
function excerpt(item: ReviewItemView): string {
  return (item.reply?.body ?? item.topic?.view.body ?? '').replace(/\s+/g, ' ').trim();
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
  const deleted = item.reply ? item.reply.deleted : (item.topic?.deleted ?? true);
  if (deleted) return 'deleted';
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
        const offset = integerOption(options.offset, 'offset', 0)!;
        const limit = integerOption(options.limit, 'limit', 1, 150)!;
        // One more than asked tells whether the page left some out.
        const items = await needing(context, NEEDS, () =>
          context.session.useCases.listReviewItems.execute(context.actor, { status: options.status, offset, limit: limit + 1 }),
        );
        const page = items.slice(0, limit);
        noteMore(context, items.length > limit, 'items', `the next page: --offset ${offset + limit} --limit ${limit}`);
        const resolved = options.status.toLowerCase() === 'resolved';
        const rows = page.map((item) => [
          item.id,
          item.kind,
          postName(item),
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
            [undefined, undefined, 44, 16, 24, undefined, 40],
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
        const item = await needing(context, NEEDS, () =>
          context.session.useCases.showReviewItem.execute(context.actor, idArgument(id, 'id')),
        );
        const lines = [
          `review item ${item.id}: ${item.kind === 'hold' ? 'a held post, waiting for approval' : 'a flagged post'}`,
          `post:     ${postName(item)} (${postState(item)})`,
          `author:   ${item.user.login} (id ${item.user.id})`,
          `status:   ${item.status}${item.resolution ? `: ${item.resolution} by ${item.resolvedBy?.login} at ${when(item.resolvedAt)}` : ''}`,
          `since:    ${when(item.createdAt)}`,
          ...(item.flags.length > 0 ? ['', 'flags:'] : []),
          ...item.flags.map(
            (flag) => `  ${when(flag.createdAt)}  ${flag.user.login}: ${flag.reason}${flag.message ? ` — ${flag.message}` : ''}`,
          ),
          '',
          item.reply?.body ?? item.topic?.view.body ?? '',
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
        const { useCases } = context.session;
        await needing(context, NEEDS, () =>
          useCases.resolveReview.execute(context.actor, itemId, {
            action: verb,
            reason: reasonOf(options),
            silence_days: options.silenceDays,
          }),
        );
        const item = await useCases.showReviewItem.execute(context.actor, itemId);
        return {
          json: context.session.wire.reviewItem(item, context.actor),
          text: `review item ${itemId} resolved: ${verb} (${postName(item)}, by ${item.user.login})`,
        };
      }),
    );
  }

  return review;
}
