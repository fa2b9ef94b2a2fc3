import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, idArgument, integerOption, needing, REASON_FLAGS, REASON_HELP, reasonOf } from './shared.js';

const day = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : '');

/** Invites (REGISTRATION=invite, contract §16b): links good for a number of sign-ups. */
export function invitesCommand(runtime: CliRuntime): Command {
  const invites = new Command('invites')
    .description('invite links, for REGISTRATION=invite')
    .addHelpText('after', '\nExamples:\n  $ forumctl invites create --uses 10\n  $ forumctl invites list');

  invites
    .command('create')
    .description('make an invite and print its link: shown once, kept only as a digest (administrators; audited)')
    .option('--uses <n>', 'how many sign-ups it is good for', '1')
    .option('--expires-in <days>', 'days until it expires', '30')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl invites create --uses 10 --expires-in 7 --reason "meetup, 3 December" --json')
    .action(
      action(runtime, async (context, options: { uses: string; expiresIn: string; reason?: string }) => {
        const input = {
          uses: integerOption(options.uses, 'uses', 1),
          expiresInDays: integerOption(options.expiresIn, 'expires-in', 1),
        };
        const created = await needing(context, 'inviting is for administrators', () =>
          context.session.useCases.createInvite.execute(context.actor, input, reasonOf(options)),
        );
        const link = context.session.wire.url(`/account/sign-up?invite=${created.code}`);
        return {
          json: { id: created.id, code: created.code, link, uses: input.uses, expires_at: created.expiresAt.toISOString() },
          text: `${link}\n(invite ${created.id}: ${input.uses} sign-up(s), until ${day(created.expiresAt)})`,
        };
      }),
    );

  invites
    .command('list')
    .description('invites, newest first: uses, expiry, whether revoked (never their codes) (administrators)')
    .addHelpText('after', '\nExample:\n  $ forumctl invites list --json')
    .action(
      action(runtime, async (context) => {
        const list = await needing(context, 'invites are for administrators', () =>
          context.session.useCases.listInvites.execute(context.actor),
        );
        return {
          json: {
            invites: list.map((i) => ({
              id: i.id,
              uses: i.uses,
              max_uses: i.maxUses,
              expires_at: i.expiresAt?.toISOString() ?? null,
              revoked_at: i.revokedAt?.toISOString() ?? null,
              created_at: i.createdAt.toISOString(),
            })),
          },
          text: table(
            ['id', 'used', 'expires', 'revoked', 'created'],
            list.map((i) => [i.id, `${i.uses}/${i.maxUses}`, day(i.expiresAt), day(i.revokedAt), day(i.createdAt)]),
          ),
        };
      }),
    );

  invites
    .command('revoke <id>')
    .description('revoke a live invite; its link stops working (administrators; audited)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl invites revoke 3')
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const inviteId = idArgument(id, 'id');
        await needing(context, 'invites are for administrators', () =>
          context.session.useCases.revokeInvite.execute(context.actor, inviteId, reasonOf(options)),
        );
        return { json: { id: inviteId, revoked: true }, text: `invite ${inviteId} revoked` };
      }),
    );

  return invites;
}
