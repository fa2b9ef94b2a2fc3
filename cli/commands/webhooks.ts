import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, confirmed, idArgument, integerOption, needing, noteMore, secretFromEnvironment } from './shared.js';
import { NotFound } from '../../src/domain/shared/errors.js';

/** What a member hears instead of a bare `Access denied`. */
const NEEDS = 'managing webhooks is for administrators';
import type { Webhook, WebhookDelivery } from '../../src/application/webhooks/webhooks.js';
import { MAX_DELIVERIES_LISTED } from '../../src/application/webhooks/webhooks.js';
import { WEBHOOK_EVENTS } from '../../src/domain/events.js';

const webhookJson = (webhook: Webhook) => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  private_nodes: webhook.privateNodes,
  created_at: webhook.createdAt.toISOString(),
});

const deliveryJson = (delivery: WebhookDelivery) => ({
  id: delivery.id,
  event: delivery.event,
  status: delivery.status,
  created_at: delivery.createdAt.toISOString(),
  completed_at: delivery.completedAt?.toISOString() ?? null,
  attempts: delivery.attempts.map((attempt) => ({
    attempted_at: attempt.attemptedAt.toISOString(),
    status_code: attempt.statusCode,
    error: attempt.error,
    duration_ms: attempt.durationMs,
  })),
});

/** What the last try got back: its response code, or why there was none. */
function lastOutcome(delivery: WebhookDelivery): string {
  const last = delivery.attempts.at(-1);
  if (!last) return 'not tried yet';
  return last.statusCode !== null ? `HTTP ${last.statusCode} in ${last.durationMs} ms` : (last.error ?? '');
}

/** `webhooks create`'s options: the signing key from the environment (`--secret-env`) or given (`--secret`). */
interface WebhookCreateOptions {
  events: string;
  secret?: string;
  secretEnv?: string;
  privateNodes?: boolean;
}

export function webhooksCommand(runtime: CliRuntime): Command {
  const webhooks = new Command('webhooks')
    .description('send events to other systems as signed HTTP POSTs')
    .addHelpText(
      'after',
      '\nExample:\n  $ forumctl webhooks create https://ci.example/forum-hook --events topic.created,reply.created',
    );

  webhooks
    .command('create <url>')
    .description('subscribe a URL to events; without a secret one is made up and shown this once')
    .requiredOption('--events <list>', `comma-separated: ${WEBHOOK_EVENTS.join(', ')}, or * for all`)
    .option(
      '--secret-env <variable>',
      'read the key deliveries are signed with (HMAC-SHA256, 8 characters or more) from this environment variable',
    )
    .option('--secret <secret>', 'the key itself (a process list and your shell history keep it: prefer --secret-env)')
    .option('--private-nodes', 'hear of events in nodes not everyone may read too (forumctl nodes access)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl webhooks create https://ci.example/hook --events "*"\n' +
        '  $ forumctl webhooks create https://ci.example/hook --events topic.created,topic.deleted --secret-env HOOK_SECRET --json',
    )
    .action(
      action(runtime, async (context, url: string, options: WebhookCreateOptions) => {
        const secret = options.secretEnv === undefined ? options.secret : secretFromEnvironment(options.secretEnv, 'secret-env');
        const { webhook, generatedSecret } = await needing(context, NEEDS, () =>
          context.session.useCases.webhooks.create(context.actor, {
            url,
            events: options.events.split(','),
            ...(secret === undefined ? {} : { secret }),
            privateNodes: options.privateNodes ?? false,
          }),
        );
        const secretLine = generatedSecret === null ? '' : `\nsecret:  ${generatedSecret}\n(the secret is not shown again)`;
        return {
          json: { ...webhookJson(webhook), ...(generatedSecret === null ? {} : { secret: generatedSecret }) },
          text:
            `created webhook ${webhook.id}\nurl:     ${webhook.url}\nevents:  ${webhook.events.join(', ')}` +
            `${webhook.privateNodes ? '\nprivate nodes: heard of too' : ''}${secretLine}`,
        };
      }),
    );

  webhooks
    .command('list')
    .description('list webhooks (never their secrets)')
    .addHelpText('after', '\nExample:\n  $ forumctl webhooks list --json')
    .action(
      action(runtime, async (context) => {
        const list = await needing(context, NEEDS, () => context.session.useCases.webhooks.list(context.actor));
        return {
          json: { webhooks: list.map(webhookJson) },
          text: table(
            ['id', 'url', 'events', 'created_at'],
            list.map((webhook) => [webhook.id, webhook.url, webhook.events.join(', '), webhook.createdAt.toISOString()]),
          ),
        };
      }),
    );

  webhooks
    .command('delete <id>')
    .description('delete a webhook; its pending deliveries are not sent')
    .addHelpText('after', '\nExample:\n  $ forumctl webhooks delete 3 --yes')
    .action(
      action(runtime, async (context, id: string) => {
        const webhookId = idArgument(id, 'id');
        const webhook = (await needing(context, NEEDS, () => context.session.useCases.webhooks.list(context.actor))).find(
          (each) => each.id === webhookId,
        );
        if (!webhook) throw new NotFound(`webhook ${webhookId}`);
        await confirmed(
          context,
          `Delete webhook ${webhookId} (${webhook.url}, for ${webhook.events.join(', ')}) and its deliveries?`,
        );
        await needing(context, NEEDS, () => context.session.useCases.webhooks.delete(context.actor, webhookId));
        return { json: { id: webhookId, deleted: true }, text: `webhook ${webhookId} deleted` };
      }),
    );

  webhooks
    .command('deliveries <id>')
    .description("a webhook's latest deliveries, newest first, with each attempt's response code or error")
    .option('--limit <n>', `how many deliveries (1–${MAX_DELIVERIES_LISTED}, default 20)`)
    .addHelpText('after', '\nExample:\n  $ forumctl webhooks deliveries 3 --limit 5')
    .action(
      action(runtime, async (context, id: string, options: { limit?: string }) => {
        const webhookId = idArgument(id, 'id');
        const limit = integerOption(options.limit, 'limit', 1, MAX_DELIVERIES_LISTED) ?? 20;
        // One more than asked tells whether older deliveries were left out (stderr says so).
        const read = await needing(context, NEEDS, () =>
          context.session.useCases.webhooks.deliveries(context.actor, webhookId, limit + 1),
        );
        const list = read.slice(0, limit);
        const more = limit < MAX_DELIVERIES_LISTED ? read.length > limit : list.length === limit;
        noteMore(
          context,
          more,
          'deliveries',
          limit < MAX_DELIVERIES_LISTED
            ? `older ones: a larger --limit (at most ${MAX_DELIVERIES_LISTED})`
            : 'only the latest are listed',
        );
        return {
          json: { deliveries: list.map(deliveryJson) },
          text: table(
            ['delivery', 'event', 'status', 'attempts', 'last attempt', 'created_at'],
            list.map((delivery) => [
              delivery.id,
              delivery.event,
              delivery.status,
              delivery.attempts.length,
              lastOutcome(delivery),
              delivery.createdAt.toISOString(),
            ]),
          ),
        };
      }),
    );

  webhooks
    .command('redeliver <delivery-id>')
    .description('send a delivery again now, with the same delivery id (and retries if it fails again)')
    .addHelpText('after', '\nExample:\n  $ forumctl webhooks redeliver 0b6f3c2e-5d1a-4a8e-9f1e-2c4d5e6f7a8b')
    .action(
      action(runtime, async (context, deliveryId: string) => {
        await needing(context, NEEDS, () => context.session.useCases.webhooks.redeliver(context.actor, deliveryId));
        return { json: { id: deliveryId, status: 'pending' }, text: `delivery ${deliveryId} queued again` };
      }),
    );

  return webhooks;
}
