import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action } from './shared.js';

export function appsCommand(runtime: CliRuntime): Command {
  const apps = new Command('apps').description('OAuth client applications');

  apps
    .command('create <name>')
    .description('register a client application; its secret is shown this once')
    .option('--redirect-uri <uri>', 'where the client expects to be sent back (absolute URI)')
    .addHelpText('after', '\nExample:\n  $ forumctl apps create "Forum for iOS" --json')
    .action(
      action(runtime, async (context, name: string, options: { redirectUri?: string }) => {
        const { app, clientSecret } = await context.session.useCases.createApp.execute({
          name,
          redirectUri: options.redirectUri,
        });
        const json = {
          id: app.id,
          name: app.name,
          client_id: app.clientId,
          client_secret: clientSecret,
          redirect_uri: app.redirectUri,
        };
        return {
          json,
          text: `created app ${app.name}\nclient_id:     ${app.clientId}\nclient_secret: ${clientSecret}\n(the secret is not shown again)`,
        };
      }),
    );

  apps
    .command('list')
    .description('list client applications (never their secrets)')
    .addHelpText('after', '\nExample:\n  $ forumctl apps list')
    .action(
      action(runtime, async (context) => {
        const list = await context.session.useCases.listApps.execute();
        return {
          json: {
            apps: list.map((app) => ({
              id: app.id,
              name: app.name,
              client_id: app.clientId,
              redirect_uri: app.redirectUri,
              created_at: app.createdAt.toISOString(),
            })),
          },
          text: table(
            ['id', 'name', 'client_id', 'redirect_uri'],
            list.map((app) => [app.id, app.name, app.clientId, app.redirectUri]),
          ),
        };
      }),
    );

  return apps;
}
