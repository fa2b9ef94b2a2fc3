import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { startJobs } from '../support/jobs.js';
import { startServerProcess } from '../support/server-process.js';
import { WebhookReceiver, type ReceivedDelivery } from '../support/webhook-receiver.js';
import { until } from '../support/wait.js';
import { SecretBox } from '../../src/application/ports.js';
import { SealWebhookSecrets, UNOPENED_SECRET, WebhookStore } from '../../src/application/webhooks/webhooks.js';
import { AesSecretBox } from '../../src/adapters/system/secret-box.js';
import { webhookDeliveryTask } from '../../src/adapters/jobs/tasks/webhook-delivery.js';
import { DELIVERY_TASK } from '../../src/adapters/persistence/webhooks/webhook-store.js';

const LEGACY_SECRET = 'a secret kept in clear';

/** What a receiver checks: the HMAC of the raw body with the shared secret. */
const signedWith = (delivery: ReceivedDelivery, secret: string) =>
  delivery.headers['x-forum-signature-256'] === `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;

const box = () => testEnv().container.get<SecretBox>(SecretBox);

interface SecretRow {
  id: number;
  secret: string;
  secret_sealed: boolean;
}

const secretRows = () => testEnv().sql<SecretRow>('select id, secret, secret_sealed from webhooks order by id');

/** A webhook as a release before sealing wrote it: its secret in clear (`secret_sealed` left at its default). */
async function legacyWebhook(url: string, secret = LEGACY_SECRET): Promise<number> {
  const [row] = await testEnv().sql<{ id: number }>(
    `insert into webhooks (url, events, secret) values ($1, '{topic.created}', $2) returning id`,
    [url, secret],
  );
  return row!.id;
}

async function createWebhook(url: string, secret?: string): Promise<{ id: number; secret?: string }> {
  const given = secret === undefined ? [] : ['--secret', secret];
  const created = await forumctl(['webhooks', 'create', url, '--events', 'topic.created', ...given, '--json']);
  expect(created.code, created.stderr).to.equal(0);
  return created.json<{ id: number; secret?: string }>();
}

/** Tries every pending delivery once, in this process, as a worker would. */
async function deliverPending(): Promise<void> {
  const env = testEnv();
  const pending = await env.sql<{ id: string }>("select id from webhook_deliveries where status = 'pending' order by id");
  for (const { id } of pending) {
    await env.scope(() => env.useCases.deliverWebhook.attempt(id, { attempt: 1, maxAttempts: 10 }));
  }
}

describe('webhook secrets, sealed at rest under SECRET_KEY', () => {
  let receiver: WebhookReceiver;
  let alice: TestUser;
  let node: number;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    alice = await makeUser('alice');
    node = await makeNode('Hooks');
  });

  afterEach(async () => {
    await receiver.stop();
  });

  it('keeps no secret in clear in the row, made up or given, and signs each delivery with it', async () => {
    const made = await createWebhook(receiver.url);
    await createWebhook(receiver.url, 'a chosen secret');
    const rows = await secretRows();
    expect(rows.map((row) => row.secret_sealed)).to.deep.equal([true, true]);
    expect(rows[0]!.secret).not.to.contain(made.secret!);
    expect(rows[1]!.secret).not.to.contain('a chosen secret');
    expect(rows.map((row) => box().open(row.secret))).to.deep.equal([made.secret, 'a chosen secret']);

    await makeTopic(alice, node);
    await deliverPending();
    const received = await receiver.waitFor(2);
    const signers = received.map((delivery) => [made.secret!, 'a chosen secret'].find((secret) => signedWith(delivery, secret)));
    expect(signers.sort()).to.deep.equal([made.secret!, 'a chosen secret'].sort());
  });

  it('takes a secret from the environment variable --secret-env names, never shown, and refuses an unset one', async () => {
    process.env.FORUM_TEST_HOOK_SECRET = 'a secret from the environment';
    try {
      const args = ['webhooks', 'create', receiver.url, '--events', 'topic.created', '--secret-env', 'FORUM_TEST_HOOK_SECRET'];
      const created = await forumctl(args);
      expect(created.code, created.stderr).to.equal(0);
      expect(created.stdout).to.not.contain('a secret from the environment');
      const [row] = await secretRows();
      expect(box().open(row!.secret)).to.equal('a secret from the environment');
      delete process.env.FORUM_TEST_HOOK_SECRET;
      const unset = await forumctl(args);
      expect(unset.code).to.not.equal(0);
      expect(unset.stderr).to.contain('the environment variable FORUM_TEST_HOOK_SECRET is empty or not set');
      expect(await secretRows()).to.have.length(1);
    } finally {
      delete process.env.FORUM_TEST_HOOK_SECRET;
    }
  });

  it('signs with a secret kept in clear until it is sealed, and with the same one after', async () => {
    const id = await legacyWebhook(receiver.url);
    await makeTopic(alice, node, 'Before sealing');
    await deliverPending();
    const [before] = await receiver.waitFor(1);
    expect(signedWith(before!, LEGACY_SECRET)).to.equal(true);

    const seal = testEnv().container.get(SealWebhookSecrets);
    expect(await testEnv().scope(() => seal.execute())).to.equal(1);
    const [row] = await secretRows();
    expect(row).to.include({ id, secret_sealed: true });
    expect(row!.secret).not.to.contain(LEGACY_SECRET);
    expect(box().open(row!.secret)).to.equal(LEGACY_SECRET);
    expect(await testEnv().scope(() => seal.execute())).to.equal(0);

    await makeTopic(alice, node, 'After sealing');
    await deliverPending();
    const [, after] = await receiver.waitFor(2);
    expect(JSON.parse(after!.body).data.title).to.equal('After sealing');
    expect(signedWith(after!, LEGACY_SECRET)).to.equal(true);
  });

  it('seals each clear secret once when two processes seal at the same time', async () => {
    const secrets = ['first clear secret', 'second clear secret'];
    for (const secret of secrets) await legacyWebhook(receiver.url, secret);
    const store = testEnv().container.get<WebhookStore>(WebhookStore);
    // Both processes read the clear secrets before either writes; the first to write wins each row.
    const [first, second] = await Promise.all([store.clearSecrets(), store.clearSecrets()]);
    const firstSeals = first.map(({ id, secret }) => ({ id, sealed: box().seal(secret) }));
    expect(await Promise.all(firstSeals.map(({ id, sealed }) => store.sealSecret(id, sealed)))).to.deep.equal([true, true]);
    const secondSeals = second.map(({ id, secret }) => store.sealSecret(id, box().seal(secret)));
    expect(await Promise.all(secondSeals)).to.deep.equal([false, false]);
    const rows = await secretRows();
    expect(rows.map((row) => row.secret)).to.deep.equal(firstSeals.map(({ sealed }) => sealed));
    expect(rows.map((row) => box().open(row.secret))).to.deep.equal(secrets);
    expect(await testEnv().scope(() => testEnv().container.get(SealWebhookSecrets).execute())).to.equal(0);
  });

  it('is sealed by a server as it starts, which says so; deliveries are signed as before', async function () {
    this.timeout(60_000);
    await legacyWebhook(receiver.url);
    const server = await startServerProcess({
      DATABASE_URL: testEnv().config.databaseUrl!,
      SECRET_KEY: testEnv().config.secretKey!,
      WEBHOOKS_CONCURRENCY: '0',
    });
    try {
      const [row] = await secretRows();
      expect(row!.secret_sealed).to.equal(true);
      expect(row!.secret).not.to.contain(LEGACY_SECRET);
      expect(server.output()).to.contain('sealed the webhook secrets kept in clear');
      expect(server.output()).not.to.contain(LEGACY_SECRET);
    } finally {
      await server.terminate();
    }
    await makeTopic(alice, node);
    await deliverPending();
    const [delivered] = await receiver.waitFor(1);
    expect(signedWith(delivered!, LEGACY_SECRET)).to.equal(true);
  });

  it('fails the try of a secret sealed under another key, saying why, and the worker goes on delivering', async function () {
    this.timeout(20_000);
    await createWebhook(receiver.url, 'the right secret');
    const stranger = await createWebhook(receiver.url, 'a secret from elsewhere');
    const elsewhere = new AesSecretBox('another server secret key, 32 characters or more');
    await testEnv().sql('update webhooks set secret = $2 where id = $1', [
      stranger.id,
      elsewhere.seal('a secret from elsewhere'),
    ]);
    const worker = await startJobs([
      webhookDeliveryTask(testEnv().useCases.deliverWebhook, { identifier: DELIVERY_TASK, concurrency: 1 }),
    ]);
    try {
      await makeTopic(alice, node, 'First');
      const tried = async () =>
        (
          await testEnv().sql<{ status: string; status_code: number | null; error: string | null }>(
            `select d.status, a.status_code, a.error from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id
             where d.webhook_id = $1`,
            [stranger.id],
          )
        )[0];
      await until(async () => (await tried()) !== undefined);
      expect(await tried()).to.deep.equal({ status: 'pending', status_code: null, error: UNOPENED_SECRET });

      await makeTopic(alice, node, 'Second');
      const received = await receiver.waitFor(2);
      // Only the webhook whose secret opens was sent anything, both times.
      expect(received.map((delivery) => JSON.parse(delivery.body).data.title).sort()).to.deep.equal(['First', 'Second']);
      expect(received.every((delivery) => signedWith(delivery, 'the right secret'))).to.equal(true);
    } finally {
      await worker.stop();
    }
  });
});
