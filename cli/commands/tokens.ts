import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import {
  action,
  confirmed,
  denied,
  isSelfOrAdministrator,
  needing,
  positiveSeconds,
  REASON_FLAGS,
  REASON_HELP,
  reasonOf,
} from './shared.js';
import { table, when } from '../output.js';
import { NotFound } from '../../src/domain/shared/errors.js';

/** What is said of a token that matched nothing: what it was likely to be, and what ends every token of a user. */
const NO_LIVE_TOKEN =
  'no live token matched: give the token itself (not the id that tokens list shows); tokens revoke-all <login> ends every token of a user';

export function tokensCommand(runtime: CliRuntime): Command {
  const tokens = new Command('tokens')
    .description('bearer access tokens')
    .addHelpText('after', '\nExamples:\n  $ forumctl tokens issue alice --json\n  $ forumctl tokens list alice');

  tokens
    .command('issue <login>')
    .description('issue an access token (and refresh token) for a user')
    .option('--expires-in <seconds>', 'lifetime of the access token (default: ACCESS_TOKEN_TTL, one day)')
    .addHelpText('after', '\nExample:\n  $ forumctl tokens issue alice --expires-in 3600 --json')
    .action(
      action(runtime, async (context, login: string, options: { expiresIn?: string }) => {
        const { useCases } = context.session;
        const user = await useCases.users.byLogin(login);
        if (!user) throw new NotFound(`user ${login}`);
        // A member gets a token of their own (as the password grant gives them), never someone else's.
        if (!isSelfOrAdministrator(context, user.id))
          throw denied(context, `issuing a token for ${login} is for ${login} and administrators`);
        const issued = await useCases.issueToken.execute({
          userId: user.id,
          clientId: null,
          expiresIn: positiveSeconds(options.expiresIn),
        });
        return {
          json: issued,
          text: `${issued.access_token}\n(expires in ${issued.expires_in} s; refresh token ${issued.refresh_token})`,
        };
      }),
    );

  tokens
    .command('revoke <token>')
    .description('revoke an access or refresh token (and its pair)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl tokens revoke "$TOKEN" --yes')
    .action(
      action(runtime, async (context, token: string, options: { reason?: string }) => {
        // Nothing live matches: said before anything is asked (exit 4).
        const live = await context.session.useCases.describeToken.execute(token);
        if (!live) {
          throw new NotFound('token', NO_LIVE_TOKEN);
        }
        const expires = live.expiresAt ? `, expires ${when(live.expiresAt)}` : '';
        const app = live.clientUid ? `app ${live.clientUid}` : 'issued by forumctl';
        await confirmed(context, `Revoke ${live.login ?? 'a client'}'s ${live.kind} token (${app}${expires}) and its pair?`);
        const revoked = await context.session.useCases.revokeToken.execute(token, {
          actor: context.actor,
          reason: reasonOf(options),
        });
        // Nothing revoked is not success: a script that passed an id from `tokens list`, or a mistyped token, hears so (exit 4).
        if (!revoked) {
          throw new NotFound('token', NO_LIVE_TOKEN);
        }
        return { json: { ok: 1, revoked }, text: 'token revoked' };
      }),
    );

  tokens
    .command('list <login>')
    .description("a user's live tokens: which app holds each, its scope, until when (never the tokens); administrators only")
    .addHelpText('after', '\nExample:\n  $ forumctl tokens list alice')
    .action(
      action(runtime, async (context, login: string) => {
        const live = await needing(context, "listing a user's tokens is for administrators", () =>
          context.session.useCases.listTokens.execute(context.actor, login),
        );
        const rows = live.map((token) => ({
          id: token.id,
          app: token.clientName,
          // A personal access token's name (contract §25: a person made it for a script); null for the others.
          personal: token.name,
          scope: token.scope,
          created_at: token.createdAt.toISOString(),
          expires_at: token.expiresAt?.toISOString() ?? null,
          refresh_expires_at: token.refreshExpiresAt?.toISOString() ?? null,
        }));
        return {
          json: { tokens: rows },
          text:
            rows.length === 0
              ? `${login} has no live tokens`
              : table(
                  ['id', 'app', 'scope', 'created', 'access expires', 'refresh expires'],
                  rows.map((row) => [
                    row.id,
                    row.app ?? (row.personal === null ? '(forumctl)' : `(personal: ${row.personal})`),
                    row.scope,
                    row.created_at,
                    row.expires_at ?? 'never',
                    row.refresh_expires_at,
                  ]),
                ),
        };
      }),
    );

  tokens
    .command('revoke-all <login>')
    .description(
      'end every session of an account: revoke all its tokens and sign it out of the sign-in page; administrators only',
    )
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl tokens revoke-all alice --reason "account compromised" --yes')
    .action(
      action(runtime, async (context, login: string, options: { reason?: string }) => {
        const needs = "ending a user's sessions is for administrators";
        // The user must exist and the actor may do it before anything is asked: the count of live tokens says both.
        if (!(await context.session.useCases.users.byLogin(login))) throw new NotFound(`user ${login}`);
        const live = await needing(context, needs, () => context.session.useCases.listTokens.execute(context.actor, login));
        await confirmed(
          context,
          `Revoke ${live.length.toLocaleString('en')} live token(s) of ${login} and end their sign-in sessions?`,
        );
        const ended = await needing(context, needs, () =>
          context.session.useCases.revokeAllTokens.execute(context.actor, login, reasonOf(options)),
        );
        return {
          json: { ok: 1, revoked: ended.tokens, sessions: ended.sessions },
          text: `revoked ${ended.tokens} token(s) of ${login}; ended ${ended.sessions} sign-in session(s)`,
        };
      }),
    );

  return tokens;
}
