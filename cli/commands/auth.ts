import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, confirmed, needing, REASON_FLAGS, REASON_HELP, reasonOf, secretFromEnvironment } from './shared.js';
import type { SignInProvider } from '../../src/application/providers/providers.js';
import type { CliIo } from '../runtime.js';

const NEEDS = 'sign-in providers are for administrators';

/** A provider as forumctl shows it: never its secret. */
const providerJson = (provider: SignInProvider) => ({
  id: provider.id,
  name: provider.name,
  kind: provider.kind,
  display_name: provider.displayName,
  issuer: provider.issuer,
  client_id: provider.clientId,
  authorize_url: provider.authorizeUrl,
  token_url: provider.tokenUrl,
  api_url: provider.apiUrl,
  created_at: provider.createdAt.toISOString(),
});

/**
 * The client secret: from the environment variable named by --client-secret-env; else asked on a terminal (not
 * echoed); else the first line of stdin. Never an argument (a process list and a shell's history would keep it).
 */
async function clientSecret(io: CliIo, variable: string | undefined): Promise<string> {
  if (variable !== undefined) return secretFromEnvironment(variable, 'client-secret-env');
  if (io.stdinIsTerminal) return io.secret('client secret: ');
  return (await io.readStdin()).split(/\r?\n/)[0] ?? '';
}

/** Signing in with other providers (contract §25): OpenID Connect providers and GitHub. */
export function authCommand(runtime: CliRuntime): Command {
  const auth = new Command('auth')
    .description('how people sign in: other providers (OpenID Connect, GitHub)')
    .addHelpText('after', '\nExample:\n  $ forumctl auth providers list');
  const providers = auth
    .command('providers')
    .description('the providers whose buttons the sign-in and sign-up pages show')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl auth providers list\n' +
        '  $ GITHUB_SECRET=… forumctl auth providers add github --kind github --client-id Iv1.abc --client-secret-env GITHUB_SECRET',
    );

  providers
    .command('list')
    .description('the providers configured (never their secrets)')
    .addHelpText('after', '\nExample:\n  $ forumctl auth providers list --json')
    .action(
      action(runtime, async (context) => {
        const list = await context.session.useCases.listProviders.execute();
        return {
          json: { providers: list.map(providerJson) },
          text:
            list.length === 0
              ? 'no sign-in providers (forumctl auth providers add)'
              : table(
                  ['name', 'kind', 'shown as', 'issuer or endpoint', 'client id'],
                  list.map((p) => [p.name, p.kind, p.displayName, p.issuer ?? p.authorizeUrl ?? '', p.clientId]),
                ),
        };
      }),
    );

  providers
    .command('add <name>')
    .description(
      'configure a provider; the client secret comes from --client-secret-env, a terminal prompt, or stdin, and is ' +
        'stored encrypted under the server’s key (administrators; audited)',
    )
    .requiredOption('--kind <kind>', 'oidc (any OpenID Connect provider) or github')
    .requiredOption('--client-id <id>', 'the client id the provider gave')
    .option('--client-secret-env <variable>', 'read the client secret from this environment variable')
    .option('--issuer <url>', 'oidc: the issuer URL (its /.well-known/openid-configuration says the rest)')
    .option('--display-name <text>', 'the button’s words: "Sign in with <text>"')
    .option('--authorize-url <url>', 'github: the authorization endpoint (default github.com’s)')
    .option('--token-url <url>', 'github: the token endpoint (default github.com’s)')
    .option('--api-url <url>', 'github: the API (default https://api.github.com)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  $ forumctl auth providers add keycloak --kind oidc --issuer https://sso.example/realms/staff --client-id forum --display-name "Staff SSO" < secret.txt\n' +
        '  $ forumctl auth providers add github --kind github --client-id Iv1.abc --client-secret-env GITHUB_SECRET',
    )
    .action(
      action(
        runtime,
        async (
          context,
          name: string,
          options: {
            kind: string;
            clientId: string;
            clientSecretEnv?: string;
            issuer?: string;
            displayName?: string;
            authorizeUrl?: string;
            tokenUrl?: string;
            apiUrl?: string;
            reason?: string;
          },
        ) => {
          const secret = await clientSecret(context.io, options.clientSecretEnv);
          const provider = await needing(context, NEEDS, () =>
            context.session.useCases.addProvider.execute(
              context.actor,
              {
                name,
                kind: options.kind,
                clientId: options.clientId,
                clientSecret: secret,
                issuer: options.issuer,
                displayName: options.displayName,
                authorizeUrl: options.authorizeUrl,
                tokenUrl: options.tokenUrl,
                apiUrl: options.apiUrl,
              },
              reasonOf(options),
            ),
          );
          const callback = context.session.wire.url(`/account/auth/${provider.name}/callback`);
          return {
            json: { ...providerJson(provider), callback_url: callback },
            text: `added sign-in provider ${provider.name} (${provider.kind})\ncallback URL to register with the provider: ${callback}`,
          };
        },
      ),
    );

  providers
    .command('remove <name>')
    .description('remove a provider: its button goes; links to it stay, and work again if it is added again (audited)')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText('after', '\nExample:\n  $ forumctl auth providers remove keycloak --yes')
    .action(
      action(runtime, async (context, name: string, options: { reason?: string }) => {
        await confirmed(context, `remove the sign-in provider ${name}?`);
        const removed = await needing(context, NEEDS, () =>
          context.session.useCases.removeProvider.execute(context.actor, name, reasonOf(options)),
        );
        return { json: { removed: removed.name }, text: `removed sign-in provider ${removed.name}` };
      }),
    );

  return auth;
}
