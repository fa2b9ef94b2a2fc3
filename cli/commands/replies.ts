import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { action, confirmed, idArgument, OK_RESULT } from './shared.js';

export function repliesCommand(runtime: CliRuntime): Command {
  const replies = new Command('replies').description('reply moderation');

  replies
    .command('delete <id>')
    .description("delete a reply (soft: it keeps its floor, shown as deleted); the topic's counters are recomputed")
    .addHelpText('after', '\nExample:\n  $ forumctl replies delete 1234 --yes')
    .action(
      action(runtime, async (context, id: string) => {
        const replyId = idArgument(id, 'id');
        await confirmed(context, `Delete reply ${replyId}?`);
        await context.session.useCases.deleteReply.execute(context.actor, replyId);
        return OK_RESULT(`reply ${replyId} deleted by ${context.actor.login}`);
      }),
    );

  return replies;
}
