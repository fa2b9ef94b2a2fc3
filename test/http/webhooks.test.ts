import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { WebhookReceiver, type ReceivedDelivery } from '../support/webhook-receiver.js';
import { until } from '../support/wait.js';
import type { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import { webhookDeliveryTask } from '../../src/adapters/jobs/tasks/webhook-delivery.js';
import { DELIVERY_TASK } from '../../src/adapters/persistence/webhooks/webhook-store.js';
import { startJobs } from '../support/jobs.js';

const SECRET = 'a shared secret';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What a receiver does to trust a delivery: the HMAC of the raw body with the shared secret. */
function signedCorrectly(delivery: ReceivedDelivery, secret = SECRET): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(delivery.body).digest('hex')}`;
  return delivery.headers['x-forum-signature-256'] === expected;
}

async function createWebhook(url: string, events: string, secret = SECRET): Promise<number> {
  const created = await forumctl(['webhooks', 'create', url, '--events', events, '--secret', secret, '--json']);
  expect(created.code, created.stderr).to.equal(0);
  return created.json<{ id: number }>().id;
}

interface DeliveryJson {
  id: string;
  event: string;
  status: string;
  attempts: { status_code: number | null; error: string | null }[];
}

async function deliveries(webhookId: number): Promise<DeliveryJson[]> {
  const listed = await forumctl(['webhooks', 'deliveries', String(webhookId), '--json']);
  expect(listed.code, listed.stderr).to.equal(0);
  return listed.json<{ deliveries: DeliveryJson[] }>().deliveries;
}

/** Waits until graphile-worker no longer holds the delivery's job (its failed try recorded and rescheduled). */
async function jobReleased(deliveryId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const [job] = await testEnv().sql<{ locked_at: Date | null }>('select locked_at from graphile_worker.jobs where key = $1', [
      deliveryId,
    ]);
    if (job && job.locked_at === null) return;
    await sleep(25);
  }
  throw new Error(`the job of delivery ${deliveryId} stayed locked`);
}

describe('webhooks (contract §13)', () => {
  let receiver: WebhookReceiver;
  let alice: TestUser;
  let bob: TestUser;
  let node: number;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    node = await makeNode('Ruby');
  });

  afterEach(async () => {
    await receiver.stop();
  });

  describe('delivered by a worker in this process', () => {
    let worker: JobRuntime;

    before(async () => {
      worker = await startJobs([
        webhookDeliveryTask(testEnv().useCases.deliverWebhook, { identifier: DELIVERY_TASK, concurrency: 2 }),
      ]);
    });

    after(async () => {
      await worker.stop();
    });

    it('POSTs a signed delivery with the event, a delivery id and the Reply as the API shows it', async () => {
      const webhook = await createWebhook(receiver.url, 'reply.created');
      const topic = await makeTopic(alice, node, 'Webhooks', 'a body');
      const reply = await makeReply(bob, topic, 'hello **hooks**');

      const [delivery] = await receiver.waitFor(1);
      expect(delivery!.headers['content-type']).to.equal('application/json');
      expect(delivery!.headers['x-forum-event']).to.equal('reply.created');
      expect(delivery!.headers['x-forum-delivery']).to.match(UUID);
      expect(signedCorrectly(delivery!)).to.equal(true);
      expect(signedCorrectly(delivery!, 'another secret')).to.equal(false);
      const body = JSON.parse(delivery!.body);
      expect(body.event).to.equal('reply.created');
      expect(new Date(body.delivered_at).getTime()).to.be.closeTo(Date.now(), 10_000);
      expect(body.data).to.include({
        id: reply,
        topic_id: topic,
        body: 'hello **hooks**',
        deleted: false,
        topic_title: 'Webhooks',
      });
      expect(body.data.body_html).to.contain('<strong>hooks</strong>');
      expect(body.data.user).to.include({ id: bob.id, login: 'bob' });
      expect(body.data.abilities).to.deep.equal({ update: false, destroy: false });

      // The topic was created too, but this webhook did not ask for topic.created.
      await sleep(300);
      expect(receiver.received).to.have.length(1);
      await until(async () => (await deliveries(webhook))[0]?.status === 'delivered');
      const [listed] = await deliveries(webhook);
      expect(listed).to.deep.include({ id: delivery!.headers['x-forum-delivery'], event: 'reply.created', status: 'delivered' });
      expect(listed!.attempts).to.have.length(1);
      expect(listed!.attempts[0]).to.include({ status_code: 200, error: null });
    });

    it('retries after a 500 with the same delivery id and the same data, then records both attempts', async function () {
      this.timeout(20_000);
      const webhook = await createWebhook(receiver.url, '*');
      receiver.answers = [500];
      const topic = await makeTopic(alice, node, 'Retried');

      const [first, second] = await receiver.waitFor(2, 15_000);
      expect(first!.status).to.equal(500);
      expect(second!.headers['x-forum-delivery']).to.equal(first!.headers['x-forum-delivery']);
      expect(second!.headers['x-forum-event']).to.equal('topic.created');
      expect(signedCorrectly(second!)).to.equal(true);
      expect(JSON.parse(second!.body).data).to.deep.equal(JSON.parse(first!.body).data);
      expect(JSON.parse(second!.body).data).to.include({ id: topic, title: 'Retried', deleted: false });
      // The receiver answered; the worker records the attempt just after.
      await until(async () => (await deliveries(webhook))[0]?.status === 'delivered');
      const [listed] = await deliveries(webhook);
      expect(listed!.status).to.equal('delivered');
      expect(listed!.attempts.map((attempt) => attempt.status_code)).to.deep.equal([500, 200]);
    });

    it('sends nothing for a change that rolled back, even after its delivery was queued', async () => {
      await createWebhook(receiver.url, 'reply.created');
      const topic = await makeTopic(alice, node);
      // Fails the transaction at its commit, after the outbox wrote the event, the delivery and its job.
      await testEnv().sql(`
        create function refuse_reply() returns trigger language plpgsql as $$
        begin raise exception 'refused at commit'; end $$;
        create constraint trigger refuse_reply after insert on replies deferrable initially deferred
          for each row when (new.body = 'never committed') execute function refuse_reply();`);
      try {
        const failure = await makeReply(bob, topic, 'never committed').then(
          () => null,
          (error: Error) => error,
        );
        expect(failure?.message).to.contain('refused at commit');
      } finally {
        await testEnv().sql('drop trigger refuse_reply on replies; drop function refuse_reply();');
      }
      const committed = await makeReply(bob, topic, 'committed');
      const [only] = await receiver.waitFor(1);
      await sleep(500);
      expect(receiver.received).to.have.length(1);
      expect(JSON.parse(only!.body).data.id).to.equal(committed);
      const rows = await testEnv().sql<{ count: string }>('select count(*) from webhook_deliveries');
      expect(rows[0]!.count).to.equal('1');
    });

    it('sends nothing more once its webhook is deleted, not even a retry that was due', async function () {
      this.timeout(15_000);
      const webhook = await createWebhook(receiver.url, 'topic.created');
      receiver.answers = [500];
      await makeTopic(alice, node);
      const [first] = await receiver.waitFor(1);
      const deliveryId = first!.headers['x-forum-delivery'] as string;
      await jobReleased(deliveryId);

      const deleted = await forumctl(['webhooks', 'delete', String(webhook), '--yes', '--json']);
      expect(deleted.code, deleted.stderr).to.equal(0);
      expect(deleted.json()).to.deep.equal({ id: webhook, deleted: true });
      await makeTopic(alice, node, 'After the delete');
      // The retry was due about 2.7 s after the first try: it finds its delivery gone and ends.
      await sleep(4_000);
      expect(receiver.received).to.have.length(1);
      const jobs = await testEnv().sql<{ count: string }>('select count(*) from graphile_worker.jobs where key = $1', [
        deliveryId,
      ]);
      expect(jobs[0]!.count).to.equal('0');
    });

    it('redelivers a delivery on demand with the same delivery id', async () => {
      const webhook = await createWebhook(receiver.url, 'topic.created');
      await makeTopic(alice, node);
      const [first] = await receiver.waitFor(1);
      const deliveryId = first!.headers['x-forum-delivery'] as string;
      await until(async () => (await deliveries(webhook))[0]?.status === 'delivered');

      const again = await forumctl(['webhooks', 'redeliver', deliveryId]);
      expect(again.code, again.stderr).to.equal(0);
      const [, second] = await receiver.waitFor(2);
      expect(second!.headers['x-forum-delivery']).to.equal(deliveryId);
      expect(signedCorrectly(second!)).to.equal(true);
      await until(async () => (await deliveries(webhook))[0]?.attempts.length === 2);
    });

    it('shares the work between workers without sending anything twice', async function () {
      this.timeout(20_000);
      const second = await startJobs([
        webhookDeliveryTask(testEnv().useCases.deliverWebhook, { identifier: DELIVERY_TASK, concurrency: 2 }),
      ]);
      try {
        await createWebhook(receiver.url, 'reply.created');
        const topic = await makeTopic(alice, node);
        const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => makeReply(bob, topic, `reply ${i}`)));
        await receiver.waitFor(20);
        await sleep(500);
        const ids = receiver.received.map((delivery) => JSON.parse(delivery.body).data.id as number);
        expect(ids.sort((a, b) => a - b)).to.deep.equal(replies.sort((a, b) => a - b));
        await until(
          async () => (await testEnv().sql<{ count: string }>('select count(*) from webhook_attempts'))[0]!.count === '20',
        );
      } finally {
        await second.stop();
      }
    });

    it('reports a failed try with no response as an error, without a code', async function () {
      this.timeout(15_000);
      const webhook = await createWebhook('http://127.0.0.1:9/closed', 'topic.created');
      await makeTopic(alice, node);
      for (let i = 0; i < 100; i++) {
        const [listed] = await deliveries(webhook);
        if (listed?.attempts.length) {
          expect(listed.status).to.equal('pending');
          expect(listed.attempts[0]!.status_code).to.equal(null);
          expect(listed.attempts[0]!.error).to.match(/ECONNREFUSED/);
          return;
        }
        await sleep(50);
      }
      throw new Error('no attempt was recorded');
    });
  });

  describe('across processes', () => {
    let first: ServerProcess | null = null;
    let second: ServerProcess | null = null;

    afterEach(async () => {
      await first?.terminate();
      await second?.terminate();
      first = second = null;
    });

    it('loses nothing when the process dies between the commit and the delivery: the next process delivers it', async function () {
      this.timeout(60_000);
      // The test's key: the secret forumctl sealed here is opened there.
      const env = {
        DATABASE_URL: testEnv().config.databaseUrl!,
        SECRET_KEY: testEnv().config.secretKey!,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
      };
      const webhook = await createWebhook(receiver.url, 'reply.created');
      receiver.answers = [503];
      const topic = await makeTopic(alice, node);
      first = await startServerProcess(env);
      const created = await fetch(`${first.url}/api/v3/topics/${topic}/replies`, {
        method: 'POST',
        headers: { ...bob.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ body: 'survives a crash' }),
      });
      expect(created.status).to.equal(200);
      const [failed] = await receiver.waitFor(1);
      const deliveryId = failed!.headers['x-forum-delivery'] as string;
      await jobReleased(deliveryId);
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first!.child.once('exit', resolve));
      first = null;

      second = await startServerProcess(env);
      const [, delivered] = await receiver.waitFor(2, 15_000);
      expect(delivered!.headers['x-forum-delivery']).to.equal(deliveryId);
      expect(delivered!.status).to.equal(200);
      expect(JSON.parse(delivered!.body).data.body).to.equal('survives a crash');
      await until(async () => (await deliveries(webhook))[0]?.status === 'delivered');
    });
  });

  describe('a try left locked by a process that died mid-try', () => {
    let worker: JobRuntime | null = null;

    afterEach(async () => {
      await worker?.stop();
      worker = null;
    });

    /** Queues a delivery while no worker runs, then marks its job as taken `secondsAgo` by a worker now gone. */
    async function orphanedDelivery(secondsAgo: number): Promise<string> {
      await createWebhook(receiver.url, 'topic.created');
      await makeTopic(alice, node);
      const [delivery] = await testEnv().sql<{ id: string }>('select id from webhook_deliveries');
      await testEnv().sql(
        `update graphile_worker._private_jobs set locked_by = 'a worker that died', locked_at = now() - make_interval(secs => $2)
         where key = $1`,
        [delivery!.id, secondsAgo],
      );
      return delivery!.id;
    }

    const startWorker = async () => {
      worker = await startJobs([
        webhookDeliveryTask(testEnv().useCases.deliverWebhook, { identifier: DELIVERY_TASK, concurrency: 1 }),
      ]);
    };

    it('is released for another worker once held longer than a try can take (5 minutes)', async () => {
      const deliveryId = await orphanedDelivery(6 * 60);
      await startWorker();
      const [delivered] = await receiver.waitFor(1, 5_000);
      expect(delivered!.headers['x-forum-delivery']).to.equal(deliveryId);
    });

    it('is left alone while it may still be running', async () => {
      await orphanedDelivery(10);
      await startWorker();
      await sleep(1_000);
      expect(receiver.received).to.have.length(0);
    });
  });

  describe('forumctl webhooks', () => {
    it('makes up a secret when none is given and shows it once; list never shows it', async () => {
      const created = await forumctl([
        'webhooks',
        'create',
        'https://hooks.example/forum',
        '--events',
        'topic.created, reply.created',
        '--json',
      ]);
      expect(created.code, created.stderr).to.equal(0);
      const webhook = created.json<{ id: number; secret: string; events: string[] }>();
      expect(webhook.secret).to.match(/^\S{20,}$/);
      expect(webhook.events).to.deep.equal(['topic.created', 'reply.created']);
      const listed = await forumctl(['webhooks', 'list', '--json']);
      expect(listed.json<{ webhooks: object[] }>().webhooks).to.deep.equal([
        {
          id: webhook.id,
          url: 'https://hooks.example/forum',
          events: ['topic.created', 'reply.created'],
          private_nodes: false,
          created_at: listed.json<{ webhooks: { created_at: string }[] }>().webhooks[0]!.created_at,
        },
      ]);
      expect(listed.stdout).not.to.contain(webhook.secret);
      const text = await forumctl(['webhooks', 'list']);
      expect(text.stdout).to.contain('https://hooks.example/forum').and.not.contain(webhook.secret);
      // A secret the operator chose is not echoed back.
      const chosen = await forumctl([
        'webhooks',
        'create',
        'https://hooks.example/b',
        '--events',
        '*',
        '--secret',
        'chosen secret',
      ]);
      expect(chosen.stdout).not.to.contain('chosen secret');
    });

    it('refuses what it cannot deliver: exit 2 with the reason', async () => {
      for (const [args, reason] of [
        [['ftp://hooks.example/x', '--events', '*'], /http\(s\)/],
        [['not a url', '--events', '*'], /absolute/],
        [['https://hooks.example/x', '--events', 'topic.liked'], /unknown event topic\.liked/],
        [['https://hooks.example/x', '--events', ','], /at least one/],
        [['https://hooks.example/x', '--events', '*', '--secret', 'short'], /at least 8/],
      ] as const) {
        const result = await forumctl(['webhooks', 'create', ...args]);
        expect(result.code, args.join(' ')).to.equal(2);
        expect(result.stderr).to.match(reason);
      }
    });

    it('maintenance purge-deliveries deletes old deliveries that ended, with their attempts, and keeps those still tried', async () => {
      const webhook = await createWebhook('https://hooks.example/forum', '*');
      const insert = (id: string, status: string, daysAgo: number) =>
        testEnv().sql(
          `insert into webhook_deliveries (id, webhook_id, event_id, event, payload, status, created_at)
           values ($1, $2, 1, 'topic.created', '{}', $3, now() - make_interval(days => $4))`,
          [id, webhook, status, daysAgo],
        );
      await insert('00000000-0000-4000-8000-000000000001', 'delivered', 40);
      await insert('00000000-0000-4000-8000-000000000002', 'failed', 40);
      await insert('00000000-0000-4000-8000-000000000003', 'pending', 40);
      await insert('00000000-0000-4000-8000-000000000004', 'delivered', 2);
      await testEnv().sql(
        `insert into webhook_attempts (delivery_id, attempted_at, status_code, duration_ms)
         select id, now(), 200, 3 from webhook_deliveries`,
      );
      const purged = await forumctl(['maintenance', 'purge-deliveries', '--older-than', '30', '--yes', '--json']);
      expect(purged.code, purged.stderr).to.equal(0);
      expect(purged.json()).to.deep.equal({ purged: 2 });
      const left = await testEnv().sql<{ id: string }>('select id from webhook_deliveries order by id');
      expect(left.map((row) => row.id.slice(-1))).to.deep.equal(['3', '4']);
      const attempts = await testEnv().sql<{ count: string }>('select count(*) from webhook_attempts');
      expect(attempts[0]!.count).to.equal('2');
    });

    it('is for administrators: --as a member exits 3; unknown ids exit 4', async () => {
      const member = await forumctl(['webhooks', 'list', '--as', 'alice']);
      expect(member.code).to.equal(3);
      expect((await forumctl(['webhooks', 'delete', '999', '--yes'])).code).to.equal(4);
      expect((await forumctl(['webhooks', 'deliveries', '999'])).code).to.equal(4);
      expect((await forumctl(['webhooks', 'redeliver', 'not-a-uuid'])).code).to.equal(4);
      expect((await forumctl(['webhooks', 'redeliver', '0b6f3c2e-5d1a-4a8e-9f1e-2c4d5e6f7a8b'])).code).to.equal(4);
      expect((await forumctl(['webhooks', 'deliveries', '1', '--limit', '0'])).code).to.equal(2);
    });
  });
});
