import { Command } from 'commander';
import { InvalidInput, NotFound, RuleViolated } from '../../src/domain/shared/errors.js';
import { isRole, ROLES } from '../../src/domain/users/role.js';
import type { UserDetailView } from '../../src/application/read-models.js';
import type { ActionContext, CliIo, CliRuntime } from '../runtime.js';
import { render, table, when } from '../output.js';
import { addAccountCommands } from './accounts.js';
import {
  action,
  denied,
  idArgument,
  integerOption,
  isSelfOrAdministrator,
  needing,
  noteMore,
  REASON_FLAGS,
  REASON_HELP,
  reasonOf,
  requireAdministrator,
} from './shared.js';

async function userByLogin(context: ActionContext, login: string): Promise<UserDetailView> {
  const user = await context.session.useCases.users.byLogin(login);
  if (!user) throw new NotFound(`user ${login}`);
  return user;
}

/** The e-mail as the actor may see it: an administrator's or the user's own; `""` otherwise, as over HTTP (§5). */
const emailFor = (context: ActionContext, user: UserDetailView) => (isSelfOrAdministrator(context, user.id) ? user.email : '');

function userRows(context: ActionContext, users: UserDetailView[]) {
  return table(
    ['id', 'login', 'name', 'email', 'role', 'topics'],
    users.map((u) => [u.id, u.login, u.name, emailFor(context, u), u.role, u.topicsCount]),
  );
}

/**
 * A user as the actor may see them: every field, e-mail included, for an administrator (the system moderator,
 * without `--as`) or the user themself; the UserDetail the API shows anyone else (e-mail `""`).
 */
const present = (context: ActionContext, user: UserDetailView) =>
  context.session.wire.userDetail(user, isSelfOrAdministrator(context, user.id) ? user : context.actor);

/** A silence or suspension in force, as administrators read it under `users show` (it is on no wire shape). */
function standingOf(user: UserDetailView, now: Date): string[] {
  return [
    user.silencedUntil && user.silencedUntil > now ? `silenced until ${when(user.silencedUntil)} (UTC)` : null,
    user.suspendedUntil && user.suspendedUntil > now ? `suspended until ${when(user.suspendedUntil)} (UTC)` : null,
  ].filter((line): line is string => line !== null);
}

/** Users are read in pages of this many when the whole list is asked for. */
const LIST_BATCH = 1000;

/** On a terminal: asked twice, never echoed. From a script: the first line of stdin. */
async function askPassword(io: CliIo): Promise<string> {
  if (!io.stdinIsTerminal) return (await io.readStdin()).split(/\r?\n/)[0] ?? '';
  const password = await io.secret('password: ');
  if (password !== '' && (await io.secret('password again: ')) !== password) {
    throw new InvalidInput('password', 'the two passwords differ');
  }
  return password;
}

export function usersCommand(runtime: CliRuntime): Command {
  const users = new Command('users')
    .description('user accounts, roles and per-user blocks')
    .addHelpText('after', '\nExamples:\n  $ forumctl users list\n  $ forumctl users create bob --email bob@example.com');

  users
    .command('create <login>')
    .description('create a user; without --password it is asked for on a terminal (not shown), or read from stdin')
    .requiredOption('--email <email>', 'email address')
    .option('--password <password>', 'password (at least 8 characters)')
    .option('--name <name>', 'display name')
    .option('--admin', 'make the user an administrator')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl users create bob --email bob@example.com --password "long-enough" --admin\n  $ echo "s3cret-pass" | forumctl users create alice --email alice@example.com --json',
    )
    .action(
      action(
        runtime,
        async (context, login: string, options: { email: string; password?: string; name?: string; admin?: boolean }) => {
          // Creating accounts for others (and administrators) is administration: an administrator's (exit 3 otherwise).
          requireAdministrator(context, 'creating users');
          const password = options.password ?? (await askPassword(context.io));
          const { useCases } = context.session;
          // Every problem of the input at once; a password that never came says how to give one.
          const id = await useCases.createUser
            .execute({ login, email: options.email, password, name: options.name, role: options.admin ? 'admin' : 'member' })
            .catch((error: unknown) => {
              if (password === '' && error instanceof RuleViolated) {
                throw new RuleViolated(`${error.message} (pass --password or pipe it on stdin)`);
              }
              throw error;
            });
          const user = (await useCases.users.byId(id))!;
          return { json: present(context, user), text: `created user ${user.login} (id ${user.id}, ${user.role})` };
        },
      ),
    );

  users
    .command('list')
    .description(
      'list users, oldest first: all of them, or a page with --offset/--limit (a page that leaves some out says so on stderr)',
    )
    .option('--offset <n>', 'skip this many', '0')
    .option('--limit <n>', 'at most this many (default: all)')
    .addHelpText('after', '\nExamples:\n  $ forumctl users list | cut -f2\n  $ forumctl users list --offset 20 --limit 20')
    .action(
      action(runtime, async (context, options: { offset: string; limit?: string }) => {
        const offset = integerOption(options.offset, 'offset', 0)!;
        const limit = integerOption(options.limit, 'limit', 1, 10_000);
        const read = context.session.useCases.users;
        let list: UserDetailView[];
        if (limit === undefined) {
          list = [];
          for (;;) {
            const batch = await read.list(offset + list.length, LIST_BATCH);
            list.push(...batch);
            if (batch.length < LIST_BATCH) break;
          }
        } else {
          // One more than asked tells whether the page left some out.
          const page = await read.list(offset, limit + 1);
          list = page.slice(0, limit);
          noteMore(context, page.length > limit, 'users', `the next page: --offset ${offset + limit} --limit ${limit}`);
        }
        return { json: { users: list.map((user) => present(context, user)) }, text: userRows(context, list) };
      }),
    );

  users
    .command('show <login>')
    .description('show one user')
    .addHelpText('after', '\nExample:\n  $ forumctl users show alice --json')
    .action(
      action(runtime, async (context, login: string) => {
        const user = await userByLogin(context, login);
        const rows = userRows(context, [user]);
        const standing = context.actor.role === 'admin' ? standingOf(user, new Date()) : [];
        return {
          json: present(context, user),
          text: (terminal: boolean) => [render(rows, terminal), ...standing].join('\n'),
        };
      }),
    );

  users
    .command('role <login> <role>')
    .description(`change a user's role (${ROLES.join(' | ')})`)
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl users role mallory blocked --reason "spam"')
    .action(
      action(runtime, async (context, login: string, role: string, options: { reason?: string }) => {
        if (!isRole(role)) throw new InvalidInput('role', `role must be one of ${ROLES.join(', ')}`);
        await needing(context, 'changing roles is for administrators', () =>
          context.session.useCases.changeRole.execute(context.actor, login, role, reasonOf(options)),
        );
        const user = await userByLogin(context, login);
        return { json: present(context, user), text: `${login} is now ${role}` };
      }),
    );

  for (const [verb, block] of [
    ['block-node', true],
    ['unblock-node', false],
  ] as const) {
    users
      .command(`${verb} <login> <node-id>`)
      .description(`${block ? 'hide' : 'show again'} a node's topics in the user's default topic list`)
      .addHelpText('after', `\nExample:\n  $ forumctl users ${verb} alice 3`)
      .action(
        action(runtime, async (context, login: string, nodeId: string) => {
          const user = await userByLogin(context, login);
          // Over HTTP a user changes only their own block list: so here, unless an administrator acts.
          if (!isSelfOrAdministrator(context, user.id))
            throw denied(context, `changing ${login}'s block list is for ${login} and administrators`);
          await context.session.useCases.blockNode.execute(user, idArgument(nodeId, 'node-id'), block);
          return {
            json: present(context, user),
            text: `${login} ${block ? 'blocks' : 'no longer blocks'} node ${nodeId}`,
          };
        }),
      );
  }

  for (const [verb, block] of [
    ['block-user', true],
    ['unblock-user', false],
  ] as const) {
    users
      .command(`${verb} <login> <other-login>`)
      .description(`${block ? 'hide' : 'show again'} another user's topics in the user's default topic list`)
      .addHelpText('after', `\nExample:\n  $ forumctl users ${verb} alice mallory`)
      .action(
        action(runtime, async (context, login: string, other: string) => {
          const user = await userByLogin(context, login);
          if (!isSelfOrAdministrator(context, user.id))
            throw denied(context, `changing ${login}'s block list is for ${login} and administrators`);
          await context.session.useCases.blockUser.execute(user, other, block);
          return { json: present(context, user), text: `${login} ${block ? 'blocks' : 'no longer blocks'} ${other}` };
        }),
      );
  }

  for (const [act, what] of [
    ['silence', 'may read and like, not post, until then; it ends by itself'],
    ['suspend', 'may not sign in until then (its tokens and sessions end now); it ends by itself'],
  ] as const) {
    users
      .command(`${act} <login>`)
      .description(`${act} a user for a number of days: ${what} (administrators; audited)`)
      .requiredOption('--days <n>', 'how many days (1–3650)')
      .option(REASON_FLAGS, REASON_HELP)
      .addHelpText('after', `\nExample:\n  $ forumctl users ${act} mallory --days 3 --reason "spam"`)
      .action(
        action(runtime, async (context, login: string, options: { days: string; reason?: string }) => {
          const until = await needing(
            context,
            `${act === 'silence' ? 'silencing' : 'suspending'} users is for administrators`,
            () =>
              context.session.useCases.disciplineUser.execute(context.actor, login, {
                act,
                days: options.days,
                reason: reasonOf(options),
              }),
          );
          const [field, past] = act === 'silence' ? ['silenced_until', 'silenced'] : ['suspended_until', 'suspended'];
          return { json: { login, [field]: until!.toISOString() }, text: `${login} is ${past} until ${when(until)} (UTC)` };
        }),
      );
  }

  for (const [act, what] of [
    ['unsilence', 'silence'],
    ['unsuspend', 'suspension'],
  ] as const) {
    users
      .command(`${act} <login>`)
      .description(`end a user's ${what} now (administrators; audited)`)
      .option(REASON_FLAGS, REASON_HELP)
      .addHelpText('after', `\nExample:\n  $ forumctl users ${act} mallory`)
      .action(
        action(runtime, async (context, login: string, options: { reason?: string }) => {
          await needing(context, `lifting a ${what} is for administrators`, () =>
            context.session.useCases.disciplineUser.execute(context.actor, login, { act, reason: reasonOf(options) }),
          );
          const field = act === 'unsilence' ? 'silenced_until' : 'suspended_until';
          return { json: { login, [field]: null }, text: `${login}'s ${what} is over` };
        }),
      );
  }

  const twoFactor = users
    .command('2fa')
    .description('two-factor sign-in of a user')
    .addHelpText('after', '\nExample:\n  $ forumctl users 2fa reset alice --reason "lost her phone"');
  twoFactor
    .command('reset <login>')
    .description(
      "remove a user's second factors (authenticator, passkeys, recovery codes), for someone who lost them: they sign in " +
        'with their password alone and may set up a new one (administrators; audited)',
    )
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl users 2fa reset alice --reason "lost her phone"')
    .action(
      action(runtime, async (context, login: string, options: { reason?: string }) => {
        await needing(context, 'resetting two-factor sign-in is for administrators', () =>
          context.session.useCases.resetSecondFactor.execute(context.actor, login, reasonOf(options)),
        );
        return { json: { login, second_factor: false }, text: `${login}'s two-factor sign-in is off` };
      }),
    );

  addAccountCommands(users, runtime);
  return users;
}
