import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { action, confirmed, positiveSeconds } from './shared.js';
import { NotFound } from '../../src/domain/shared/errors.js';

export function tokensCommand(runtime: CliRuntime): Command {
  const tokens = new Command('tokens').description('bearer access tokens');

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
    .addHelpText('after', '\nExample:\n  $ forumctl tokens revoke "$TOKEN" --yes')
    .action(
      action(runtime, async (context, token: string) => {
        await confirmed(context, 'Revoke this token?');
        const revoked = await context.session.useCases.revokeToken.execute(token);
        return { json: { ok: 1, revoked }, text: revoked ? 'token revoked' : 'no live token matched (nothing to do)' };
      }),
    );

  return tokens;
}
