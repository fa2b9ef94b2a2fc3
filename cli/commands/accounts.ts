import type { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, confirmed, integerOption, needing, noteMore, REASON_FLAGS, REASON_HELP, reasonOf } from './shared.js';

const ADMINISTRATORS_ONLY = 'the approval queue is for administrators';

/**
 * The account commands of `forumctl users` (contract §16b): the approval queue (REGISTRATION=approval), vouching for
 * an address whose mail does not arrive, and a reset link printed instead of mailed.
 */
export function addAccountCommands(users: Command, runtime: CliRuntime): void {
  users
    .command('pending')
    .description('accounts whose address is confirmed and that wait for approval, oldest first (administrators)')
    .option('--offset <n>', 'skip this many', '0')
    .option('--limit <n>', 'show at most this many', '100')
    .addHelpText('after', '\nExample:\n  $ forumctl users pending --json')
    .action(
      action(runtime, async (context, options: { offset: string; limit: string }) => {
        const page = { offset: integerOption(options.offset, 'offset', 0)!, limit: integerOption(options.limit, 'limit', 1)! };
        const list = await needing(context, ADMINISTRATORS_ONLY, () =>
          context.session.useCases.listPendingAccounts.execute(context.actor, { ...page, limit: page.limit + 1 }),
        );
        noteMore(context, list.length > page.limit, 'accounts', `the next page: --offset ${page.offset + page.limit}`);
        const shown = list.slice(0, page.limit);
        if (shown.length === 0)
          context.io.err(page.offset === 0 ? 'note: nobody waits for approval' : 'note: no more accounts waiting');
        return {
          json: {
            users: shown.map((u) => ({ id: u.id, login: u.login, name: u.name, email: u.email, created_at: u.createdAt })),
          },
          text: table(
            ['id', 'login', 'name', 'email', 'signed up'],
            shown.map((u) => [u.id, u.login, u.name, u.email, u.createdAt.toISOString().slice(0, 16).replace('T', ' ')]),
          ),
        };
      }),
    );

  users
    .command('approve <login>')
    .description('let a waiting account in; its owner is told by mail (administrators; audited)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl users approve bob')
    .action(
      action(runtime, async (context, login: string, options: { reason?: string }) => {
        await needing(context, 'approving accounts is for administrators', () =>
          context.session.useCases.approveAccount.execute(context.actor, login, reasonOf(options)),
        );
        return { json: { login, state: 'active' }, text: `${login} may sign in now` };
      }),
    );

  users
    .command('reject <login>')
    .description('remove a waiting account, freeing its login and address (administrators; audited)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl users reject spammer --reason "not a person" --yes')
    .action(
      action(runtime, async (context, login: string, options: { reason?: string }) => {
        const user = await context.session.useCases.users.byLogin(login);
        if (user) await confirmed(context, `Reject and remove ${user.login} (${user.email}), who waits for approval?`);
        await needing(context, 'rejecting accounts is for administrators', () =>
          context.session.useCases.rejectAccount.execute(context.actor, login, reasonOf(options)),
        );
        return { json: { login, state: 'rejected' }, text: `${login} rejected and removed` };
      }),
    );

  users
    .command('verify <login>')
    .description('confirm an address for its owner, whose mail does not arrive (administrators; audited)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl users verify bob --reason "confirmed by phone"')
    .action(
      action(runtime, async (context, login: string, options: { reason?: string }) => {
        await needing(context, 'confirming addresses is for administrators', () =>
          context.session.useCases.verifyAccount.execute(context.actor, login, reasonOf(options)),
        );
        return { json: { login, state: 'active' }, text: `${login}'s address is confirmed` };
      }),
    );

  users
    .command('delete <login>')
    .description(
      'anonymize an account as its owner leaving does; --purge also deletes its topics and replies (administrators; audited)',
    )
    .option('--purge', 'delete what the user wrote too')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl users delete spammer --purge --reason spam --yes')
    .action(
      action(runtime, async (context, login: string, options: { purge?: boolean; reason?: string }) => {
        const user = await context.session.useCases.users.byLogin(login);
        if (user && context.actor.role === 'admin') {
          const what = options.purge
            ? `, and delete their ${user.topicsCount} topic(s) and ${user.repliesCount} reply(ies)`
            : '; what they wrote stays, shown as deleted_' + user.id;
          await confirmed(context, `Anonymize ${user.login} (${user.email})${what}?`);
        }
        const done = await needing(context, 'deleting accounts is for administrators', () =>
          context.session.useCases.deleteAccount.execute(context.actor, login, {
            purge: options.purge ?? false,
            reason: reasonOf(options),
          }),
        );
        return {
          json: { login: `deleted_${done.userId}`, purged: { topics: done.topics, replies: done.replies } },
          text:
            `${login} is now deleted_${done.userId}` +
            (options.purge ? ` (${done.topics} topics, ${done.replies} replies deleted)` : ''),
        };
      }),
    );

  users
    .command('reset-link <login>')
    .description('print a one-hour password reset link, for a user whose mail does not arrive (administrators)')
    .addHelpText('after', '\nExample:\n  $ forumctl users reset-link bob')
    .action(
      action(runtime, async (context, login: string) => {
        const { token, expiresAt } = await needing(context, 'making reset links is for administrators', () =>
          context.session.useCases.makeResetLink.execute(context.actor, login),
        );
        const link = context.session.wire.url(`/account/password/reset?token=${token}`);
        return { json: { link, expires_at: expiresAt.toISOString() }, text: `${link}\n(good for one hour, once)` };
      }),
    );
}
