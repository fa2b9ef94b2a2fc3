import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { action, confirmed, idArgument, REASON_FLAGS, REASON_HELP, reasonOf, replyResult } from './shared.js';

export function repliesCommand(runtime: CliRuntime): Command {
  const replies = new Command('replies')
    .description('reply moderation')
    .addHelpText('after', '\nExamples:\n  $ forumctl replies delete 1234 --reason "off topic" --yes');

  replies
    .command('delete <id>')
    .description("delete a reply (soft: it keeps its floor, shown as deleted); the topic's counters are recomputed")
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl replies delete 1234 --reason "off topic" --yes')
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const replyId = idArgument(id, 'id');
        await confirmed(context, `Delete reply ${replyId}?`);
        await context.session.useCases.deleteReply.execute(context.actor, replyId, reasonOf(options));
        return replyResult(context, replyId, `reply ${replyId} deleted by ${context.actor.login}`);
      }),
    );

  return replies;
}
