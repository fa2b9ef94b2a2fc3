import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, needing, REASON_FLAGS, REASON_HELP, reasonOf, requireAdministrator } from './shared.js';
import type { ClientApp } from '../../src/application/oauth/clients.js';

/** Repeated options accumulate: `--redirect-uri A --redirect-uri B`. */
const collect = (value: string, previous: string[]) => [...previous, value];

const appJson = (app: ClientApp) => ({
  id: app.id,
  name: app.name,
  client_id: app.clientId,
  public: app.public,
  redirect_uris: app.redirectUris,
  created_at: app.createdAt.toISOString(),
});

export function appsCommand(runtime: CliRuntime): Command {
  const apps = new Command('apps')
    .description('OAuth client applications')
    .addHelpText('after', '\nExamples:\n  $ forumctl apps list\n  $ forumctl apps create "Forum for iOS" --json');

  apps
    .command('create <name>')
    .description('register a client application; a confidential one gets a secret, shown this once')
    .option(
      '--redirect-uri <uri>',
      'where the sign-in page may send users back with a code (absolute, no fragment); repeat for several',
      collect,
      [] as string[],
    )
    .option('--public', 'a public client (browser or mobile app): no secret, signs users in with PKCE')
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl apps create "Forum for iOS" --json\n' +
        '  $ forumctl apps create "Forum web" --public --redirect-uri https://app.example/callback --json',
    )
    .action(
      action(runtime, async (context, name: string, options: { redirectUri: string[]; public?: boolean; reason?: string }) => {
        const { app, clientSecret } = await needing(context, 'registering OAuth apps is for administrators', () =>
          context.session.useCases.createApp.execute(
            context.actor,
            { name, redirectUris: options.redirectUri, public: options.public ?? false },
            reasonOf(options),
          ),
        );
        const secretLine =
          clientSecret === null
            ? 'client_secret: none (a public client proves itself with PKCE)'
            : `client_secret: ${clientSecret}\n(the secret is not shown again)`;
        const redirects = app.redirectUris.map((uri) => `redirect_uri:  ${uri}\n`).join('');
        return {
          json: { ...appJson(app), client_secret: clientSecret },
          text: `created app ${app.name}\nclient_id:     ${app.clientId}\n${redirects}${secretLine}`,
        };
      }),
    );

  apps
    .command('list')
    .description('list client applications (never their secrets); administrators')
    .addHelpText('after', '\nExample:\n  $ forumctl apps list')
    .action(
      action(runtime, async (context) => {
        // Registered apps are administration, as creating them is (exit 3 for a member).
        requireAdministrator(context, 'listing OAuth apps');
        const list = await context.session.useCases.listApps.execute();
        return {
          json: { apps: list.map(appJson) },
          text: table(
            ['id', 'name', 'client_id', 'type', 'redirect_uris'],
            list.map((app) => [
              app.id,
              app.name,
              app.clientId,
              app.public ? 'public' : 'confidential',
              app.redirectUris.join('\n'),
            ]),
          ),
        };
      }),
    );

  return apps;
}
