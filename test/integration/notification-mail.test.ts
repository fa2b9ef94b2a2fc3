import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { AddressObject } from 'mailparser';
import { DeliverMail, MailFacts } from '../../src/application/mail/deliver-mail.js';
import { MailComposer } from '../../src/application/mail/mail-composer.js';
import { Clock, MailTokenKeys } from '../../src/application/ports.js';
import type { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import { dueMailTask } from '../../src/adapters/jobs/tasks/due-mail.js';
import { mailDeliveryTask } from '../../src/adapters/jobs/tasks/mail-delivery.js';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { DUE_MAIL_TASK, MAIL_TASK } from '../../src/adapters/persistence/mail/mail-task.js';
import { SqlNotificationMailQueue } from '../../src/adapters/persistence/mail/notification-mail-queue.js';
import { StagedRows } from '../../src/adapters/persistence/staged/staged-rows.js';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { configuredWith, PUBLIC_URL, testEnv } from '../support/env.js';
import { plainMail, replyFrom } from '../support/inbound-mail.js';
import { startJobs } from '../support/jobs.js';
import { checkedApi } from '../support/openapi.js';
import { MailSink, SINK_PASSWORD, SINK_USER } from '../support/mail-sink.js';
import { until } from '../support/wait.js';

const FROM = 'forum <noreply@forum.test>';
const REPLY_ADDRESS = 'reply+%{key}@forum.test';
const TOPIC_URL = 'https://web.forum.test/t/{id}';

function service<T>(id: symbol | (abstract new (...args: never[]) => T)): T {
  return testEnv().container.get<T>(id as never);
}

const keys = () => service<MailTokenKeys>(MailTokenKeys);

interface Queued {
  user_id: number;
  topic_id: number;
  queued_seconds_ago: number;
}

/** The notification mail waiting out its delay: a row per recipient and topic, and how long it has waited. */
async function queued(): Promise<Queued[]> {
  return testEnv().sql<Queued>(
    `select user_id, topic_id, extract(epoch from now() - queued_at)::float8 as queued_seconds_ago
     from notification_mail_queue order by user_id, topic_id`,
  );
}

/** The notification mail jobs on the job queue (moved there once due). */
async function noticeJobs(): Promise<{ payload: Record<string, unknown> }[]> {
  return testEnv().sql(
    `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = $1 and j.payload->>'kind' = 'notifications' order by j.id`,
    [MAIL_TASK],
  );
}

/** EMAIL_DELAY_MINUTES passes for what is queued now. */
async function delayPasses(): Promise<void> {
  await testEnv().sql("update notification_mail_queue set queued_at = queued_at - interval '1 day'");
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) => group.value.map((a) => a.address));

describe('notification mail (contract §17)', () => {
  let sink: MailSink;
  let worker: JobRuntime | null = null;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let nodeId: number;

  async function startWorker(replyAddress: string | null = REPLY_ADDRESS): Promise<void> {
    const env = testEnv();
    const mailer = new SmtpMailer(
      `smtp://${SINK_USER}:${encodeURIComponent(SINK_PASSWORD)}@127.0.0.1:${sink.port}`,
      FROM,
      service(Clock),
    );
    const deliver = new DeliverMail(service(MailFacts), keys(), mailer, service(Clock), service(MailComposer), {
      publicUrl: PUBLIC_URL,
      topicUrl: TOPIC_URL,
      replyAddress,
      from: FROM,
    });
    const due = new SqlNotificationMailQueue(env.persistence.sql, env.container.get(StagedRows), 10);
    worker = await startJobs([
      mailDeliveryTask(deliver, { identifier: MAIL_TASK, concurrency: 2 }),
      dueMailTask({ identifier: DUE_MAIL_TASK, everyMs: 100, move: () => due.moveDue() }),
    ]);
  }

  /** Every mail whose delay passed has been tried (sent or dropped). */
  const settled = () =>
    until(async () => (await noticeJobs()).length === 0 && (await queued()).every((row) => row.queued_seconds_ago < 60));

  beforeEach(async () => {
    sink = await MailSink.start();
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    carol = await makeUser('carol');
    nodeId = await makeNode('Mail');
  });

  afterEach(async () => {
    await worker?.stop();
    worker = null;
    await sink.stop();
  });

  it('queues the mail with the reply, in its transaction, one row per recipient and topic', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Where to start?');
    await makeReply(bob, topicId, 'Start with the **guide**.');
    await makeReply(carol, topicId, 'and the FAQ');

    const rows = await queued();
    expect(rows.map((row) => [row.user_id, row.topic_id])).to.deep.equal([[alice.id, topicId]]);
    expect(rows[0]!.queued_seconds_ago).to.be.below(5);
    // Nothing on the job queue until the delay is over.
    expect(await noticeJobs()).to.deep.equal([]);
  });

  it('moves onto the job queue only what waited EMAIL_DELAY_MINUTES, each row once, whoever moves at once', async () => {
    const topicA = await makeTopic(alice, nodeId, 'A');
    const topicB = await makeTopic(bob, nodeId, 'B');
    await makeReply(bob, topicA, 'to alice');
    await makeReply(alice, topicB, 'to bob');
    await testEnv().sql(
      `update notification_mail_queue set queued_at = now() - case when user_id = $1 then interval '4 minutes' else interval '2 minutes' end`,
      [alice.id],
    );
    const due = new SqlNotificationMailQueue(testEnv().persistence.sql, testEnv().container.get(StagedRows), 3);
    // Three processes move at once: alice's row goes once, bob's waits a minute more.
    const moved = await Promise.all([due.moveDue(), due.moveDue(), due.moveDue()]);
    expect(moved.reduce((a, b) => a + b, 0)).to.equal(1);
    expect((await noticeJobs()).map((job) => job.payload)).to.deep.equal([
      { kind: 'notifications', userId: alice.id, topicId: topicA },
    ]);
    expect((await queued()).map((row) => row.user_id)).to.deep.equal([bob.id]);
  });

  it('queues nothing for a notification written with an old date (an imported history)', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Old');
    await testEnv().sql(
      `insert into notifications (user_id, actor_id, type, topic_id, created_at)
       values ($1, $2, 'Mention', $3, now() - interval '2 days')`,
      [alice.id, bob.id, topicId],
    );
    expect(await queued()).to.deep.equal([]);
  });

  it('mails the reply once the delay passed: both parts, the topic link, threading, Reply-To and one-click unsubscribe', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Where to start?');
    await makeReply(bob, topicId, 'Start with the **guide**, @alice, and `npm test`.');
    await startWorker();
    await sleep(300);
    expect(sink.received, 'nothing before the delay').to.have.length(0);

    await delayPasses();
    const [mail] = await sink.waitFor(1);
    const { parsed } = mail!;
    expect(mail!.to).to.deep.equal(['alice@example.com']);
    expect(parsed.subject).to.equal(`[${new URL(PUBLIC_URL).host}] Where to start?`);
    expect(parsed.messageId).to.match(/^<[0-9a-f-]{36}@forum\.test>$/);
    expect(parsed.date!.getTime()).to.be.closeTo(Date.now(), 60_000);
    expect(parsed.headers.get('auto-submitted')).to.equal('auto-generated');
    // One conversation per topic: every mail of this topic names the same id.
    const thread = `<topic-${topicId}@${new URL(PUBLIC_URL).hostname}>`;
    expect(parsed.inReplyTo).to.equal(thread);
    expect(parsed.references).to.equal(thread);
    // Reply-To: this recipient answering this topic, under the server's key.
    const [replyTo] = addresses(parsed.replyTo);
    const key = /^reply\+(.+)@forum\.test$/.exec(replyTo!)![1]!;
    expect(keys().readReplyKey(key)).to.deep.equal({ userId: alice.id, topicId });
    // The list headers, as RFC 2369, 2919 and 8058 have them.
    const unsubscribeKey = keys().unsubscribeKey(alice.id, 'notifications');
    const unsubscribeUrl = `${PUBLIC_URL}/account/unsubscribe?key=${unsubscribeKey}`;
    const rawHeader = (name: string) =>
      new RegExp(`^${name}:((?:.*)(?:\r\n[ \t].*)*)`, 'im')
        .exec(mail!.raw.toString())?.[1]
        ?.replace(/\r\n[ \t]+/g, ' ')
        .trim();
    expect(rawHeader('List-Id')).to.equal(
      `"${new URL(PUBLIC_URL).host} notifications" <notifications.${new URL(PUBLIC_URL).hostname}>`,
    );
    // One header, both ways (RFC 2369 §2), the https link first.
    expect(mail!.raw.toString().match(/^List-Unsubscribe:/gim)).to.have.length(1);
    expect(rawHeader('List-Unsubscribe')).to.equal(
      `<${unsubscribeUrl}>, <mailto:reply+${unsubscribeKey}@forum.test?subject=unsubscribe%20${unsubscribeKey}>`,
    );
    expect(rawHeader('List-Unsubscribe-Post')).to.equal('List-Unsubscribe=One-Click');

    // The text part: the reply as written, and where the topic is (TOPIC_URL).
    expect(parsed.text).to.contain('bob mentioned you in “Where to start?”');
    expect(parsed.text).to.contain('Start with the **guide**, @alice, and `npm test`.');
    expect(parsed.text).to.contain(`https://web.forum.test/t/${topicId}`);
    expect(parsed.text).to.contain('Reply to this mail to post your answer in the topic.');
    // alice never chose: the footer says the forum mails everyone so, and where to change it.
    expect(parsed.text!.replace(/\s+/g, ' ')).to.contain(
      `because ${new URL(PUBLIC_URL).host} mails every account of replies to its topics and of mentions: that is the forum’s default until you choose otherwise. Change it in the mail settings, or unsubscribe.`,
    );
    expect(parsed.text).to.not.contain('you asked');
    expect(parsed.text).to.contain(unsubscribeUrl);
    // The HTML part: the API's rendering, styles inlined, links absolute, nothing remote but links.
    const html = String(parsed.html);
    expect(html).to.match(/<strong[^>]*>guide<\/strong>/);
    expect(html).to.match(/<code style="[^"]*monospace[^"]*">npm test<\/code>/);
    expect(html).to.contain(`href="${PUBLIC_URL}/alice"`);
    expect(html).to.contain(`href="https://web.forum.test/t/${topicId}"`);
    expect(html).to.not.match(/<script|<style/);

    await settled();
    const [row] = await testEnv().sql<{ emailed: boolean }>(
      'select emailed_at is not null as emailed from notifications where user_id = $1 and topic_id = $2',
      [alice.id, topicId],
    );
    expect(row!.emailed).to.equal(true);
  });

  it('sends a burst of replies made within the delay as one mail, without moving when it goes', async () => {
    const topicId = await makeTopic(alice, nodeId, 'A busy topic');
    await makeReply(bob, topicId, 'first');
    await sleep(1100);
    await makeReply(carol, topicId, 'second');
    await makeReply(bob, topicId, 'third');
    const rows = await queued();
    expect(rows).to.have.length(1);
    // The first reply set the time; the later ones joined it.
    expect(rows[0]!.queued_seconds_ago).to.be.above(1);

    await startWorker();
    await delayPasses();
    const [mail] = await sink.waitFor(1);
    await settled();
    await sleep(300);
    expect(sink.received).to.have.length(1);
    expect(mail!.parsed.text).to.contain('3 new posts in “A busy topic”');
    const text = mail!.parsed.text!;
    expect(text.indexOf('first')).to.be.below(text.indexOf('second'));
    expect(text.indexOf('second')).to.be.below(text.indexOf('third'));
    expect(text).to.contain('carol replied').and.contain('bob replied');
  });

  it('mails nothing that was read meanwhile', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Read it first');
    await makeReply(bob, topicId, 'seen on the site');
    // Alice opens the topic before the delay is over: its notifications are read.
    await api().get(`/api/v3/topics/${topicId}`).set(alice.auth).expect(200);

    await startWorker();
    await delayPasses();
    await settled();
    await sleep(300);
    expect(sink.received).to.have.length(0);
  });

  it('a second burst after the first mail brings only what is new, in the same thread', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Twice');
    await makeReply(bob, topicId, 'the first answer');
    await startWorker();
    await delayPasses();
    const [first] = await sink.waitFor(1);
    await settled();

    await makeReply(carol, topicId, 'the second answer');
    await delayPasses();
    const [, second] = await sink.waitFor(2);
    expect(second!.parsed.text).to.contain('the second answer').and.not.contain('the first answer');
    expect(second!.parsed.references).to.equal(first!.parsed.references);
    expect(second!.parsed.messageId).to.not.equal(first!.parsed.messageId);

    // Another topic is another conversation.
    const otherId = await makeTopic(alice, nodeId, 'Another');
    await makeReply(bob, otherId, 'elsewhere');
    await delayPasses();
    const [, , third] = await sink.waitFor(3);
    expect(third!.parsed.references).to.equal(`<topic-${otherId}@${new URL(PUBLIC_URL).hostname}>`);
  });

  it('follows the preferences: `mentions` mails mentions only, `none` nothing, and a change before sending counts', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Preferences');
    await api().put('/api/v3/users/me/preferences').set(alice.auth).send({ email_notifications: 'mentions' }).expect(200);
    await makeReply(bob, topicId, 'a plain reply');
    expect(await queued(), 'a reply is not mailed to `mentions`').to.have.length(0);

    await makeReply(carol, topicId, 'a word for @alice');
    expect(await queued()).to.have.length(1);
    await api().put('/api/v3/users/me/preferences').set(alice.auth).send({ email_notifications: 'none' }).expect(200);
    await makeReply(bob, topicId, 'and @alice again');
    expect(await queued(), 'still the one row').to.have.length(1);

    // Turned off after the mail was queued: the sender asks again, and sends nothing.
    await startWorker();
    await delayPasses();
    await settled();
    await sleep(300);
    expect(sink.received).to.have.length(0);
  });

  it('mails a mention in a new topic, with the topic as the post; the footer says the recipient chose mentions', async () => {
    await api().put('/api/v3/users/me/preferences').set(alice.auth).send({ email_notifications: 'mentions' }).expect(200);
    const topicId = await makeTopic(bob, nodeId, 'Asking alice', 'What do you think, @alice?');
    await startWorker();
    await delayPasses();
    const [mail] = await sink.waitFor(1);
    expect(mail!.to).to.deep.equal(['alice@example.com']);
    expect(mail!.parsed.text).to.contain('bob mentioned you in “Asking alice”').and.contain('What do you think, @alice?');
    expect(mail!.parsed.references).to.equal(`<topic-${topicId}@${new URL(PUBLIC_URL).hostname}>`);
    expect(mail!.parsed.text!.replace(/\s+/g, ' ')).to.contain(
      `because you chose, in your mail settings at ${new URL(PUBLIC_URL).host}, to be mailed of mentions.`,
    );
  });

  it('writes in Simplified Chinese to an account that reads it; no Reply-To when reply by e-mail is off', async () => {
    await testEnv().sql("update users set locale = 'zh-CN' where id = $1", [alice.id]);
    const topicId = await makeTopic(alice, nodeId, '从哪里开始？');
    await makeReply(bob, topicId, '先看**指南**。');
    await startWorker(null);
    await delayPasses();
    const [mail] = await sink.waitFor(1);
    const { parsed } = mail!;
    expect(parsed.subject).to.equal(`[${new URL(PUBLIC_URL).host}] 从哪里开始？`);
    expect(parsed.text).to.contain('bob 在《从哪里开始？》中回复了').and.contain('这封邮件的回复不会有人阅读');
    expect(parsed.html).to.contain('<html lang="zh-CN">').and.contain('查看话题');
    expect(parsed.replyTo).to.equal(undefined);
    // Without reply by e-mail, the mailto goes to MAIL_FROM with the key in the subject.
    const unsubscribeKey = keys().unsubscribeKey(alice.id, 'notifications');
    expect(mail!.raw.toString().replace(/\r\n[ \t]/g, ' ')).to.contain(
      `<mailto:noreply@forum.test?subject=unsubscribe%20${unsubscribeKey}>`,
    );
  });

  it('mails nothing for a reply deleted before the mail went, nor to an account not active', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Deleted');
    const replyId = await makeReply(bob, topicId, 'regretted');
    await api().delete(`/api/v3/replies/${replyId}`).set(bob.auth).expect(200);

    await testEnv().sql("update users set state = 'pending' where id = $1", [carol.id]);
    const carolsTopic = await makeTopic(carol, nodeId, 'Pending');
    await makeReply(bob, carolsTopic, 'to a pending account');
    expect((await queued()).map((row) => row.user_id)).to.deep.equal([alice.id]);

    await startWorker();
    await delayPasses();
    await settled();
    await sleep(300);
    expect(sink.received).to.have.length(0);
  });

  it('answering the mail posts the answer (Reply-To), and a mail to its List-Unsubscribe mailto unsubscribes', async () => {
    const topicId = await makeTopic(alice, nodeId, 'Answer by mail');
    await makeReply(bob, topicId, 'What do you think?');
    await startWorker();
    await delayPasses();
    const [mail] = await sink.waitFor(1);
    const [replyTo] = addresses(mail!.parsed.replyTo);
    const inbound = configuredWith({
      mail: { ...testEnv().config.mail, replyAddress: REPLY_ADDRESS, inboundToken: 'the provider' },
    }).app;
    const deliver = (raw: Buffer) =>
      checkedApi(inbound)
        .post('/api/v3/inbound-email')
        .set('Authorization', 'Bearer the provider')
        .set('Content-Type', 'message/rfc822')
        .send(raw)
        .expect(200);

    // Alice answers from Gmail, quoting the mail.
    const answer = replyFrom('gmail', {
      from: 'alice@example.com',
      to: replyTo!,
      messageId: `answer-${Date.now()}@mail.example.com`,
      reply: 'I think it works.',
    });
    expect((await deliver(answer)).body).to.deep.equal({ outcome: 'posted', reason: null });
    const replies = (await api().get(`/api/v3/topics/${topicId}/replies`).expect(200)).body.replies as {
      body: string;
      user: { login: string };
    }[];
    expect(replies.map((reply) => [reply.user.login, reply.body])).to.deep.equal([
      ['bob', 'What do you think?'],
      ['alice', 'I think it works.'],
    ]);

    // The mailto of List-Unsubscribe, as a mail client sends it.
    const mailto = /<mailto:([^?>]+)\?subject=([^>]+)>/.exec(mail!.raw.toString().replace(/\r\n[ \t]+/g, ' '))!;
    const leave = plainMail({
      from: 'alice@example.com',
      to: mailto[1]!,
      subject: decodeURIComponent(mailto[2]!),
      messageId: `leave-${Date.now()}@mail.example.com`,
      reply: '',
    });
    expect((await deliver(leave)).body.outcome).to.equal('unsubscribed');
    const [row] = await testEnv().sql<{ email_notifications: string }>('select email_notifications from users where id = $1', [
      alice.id,
    ]);
    expect(row!.email_notifications).to.equal('none');
  });

  describe('one-click unsubscribe (RFC 8058), as mail providers call it', () => {
    const unsubscribePath = (key: string) => `/account/unsubscribe?key=${key}`;
    const preferences = async (user: TestUser) =>
      (await api().get('/api/v3/users/me/preferences').set(user.auth).expect(200)).body.preferences;

    it('a multipart POST with List-Unsubscribe=One-Click and no cookie unsubscribes, idempotently', async () => {
      const key = keys().unsubscribeKey(alice.id, 'notifications');
      // RFC 8058 §3.2's example request, byte for byte but for the path.
      const body =
        '---FormBoundaryjWmhtjORrn\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n---FormBoundaryjWmhtjORrn--\r\n';
      for (let i = 0; i < 2; i++) {
        const response = await api()
          .post(unsubscribePath(key))
          .set('Content-Type', 'multipart/form-data; boundary=-FormBoundaryjWmhtjORrn')
          .send(body)
          .expect(200);
        expect(response.text).to.contain('You will get no more mail about replies and mentions.');
      }
      expect(await preferences(alice)).to.include({ email_notifications: 'none', email_digest: 'weekly' });
      expect(await preferences(bob)).to.include({ email_notifications: 'mentions_and_replies' });
    });

    it('a form-encoded POST unsubscribes from the digest with its own key', async () => {
      const key = keys().unsubscribeKey(bob.id, 'digest');
      await api().post(unsubscribePath(key)).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(await preferences(bob)).to.include({ email_notifications: 'mentions_and_replies', email_digest: 'none' });
    });

    it('the link opened changes nothing (mail scanners open links) and shows the button', async () => {
      const key = keys().unsubscribeKey(alice.id, 'notifications');
      const page = await api().get(unsubscribePath(key)).expect(200);
      expect(page.text).to.contain('Stop sending you mail about replies and mentions?');
      expect(page.text).to.match(
        /<form\s+method="post"\s+action="\/account\/unsubscribe\?lang=en&amp;key=\d+-n-[0-9a-f]{32}"\s*>/,
      );
      expect(await preferences(alice)).to.include({ email_notifications: 'mentions_and_replies' });
    });

    it('a forged or cut key changes nothing: 404', async () => {
      const key = keys().unsubscribeKey(alice.id, 'notifications');
      const forged = key.replace(/^\d+/, String(bob.id));
      for (const bad of [forged, key.slice(0, -1), 'nonsense', '']) {
        await api().post(unsubscribePath(bad)).type('form').send('List-Unsubscribe=One-Click').expect(404);
      }
      expect(await preferences(alice)).to.include({ email_notifications: 'mentions_and_replies' });
      expect(await preferences(bob)).to.include({ email_notifications: 'mentions_and_replies' });
    });
  });

  describe('private messages (contract §24)', () => {
    const send = async (from: TestUser, to: string[], title: string, body: string) =>
      (await api().post('/api/v3/messages').set(from.auth).send({ to, title, body }).expect(200)).body.message.id as number;

    it('mails a burst of messages as one, kept apart from notifications, and answering the mail replies in it', async () => {
      const id = await send(alice, ['bob', 'carol'], 'Our plans', 'Shall we meet at **six**?');
      await api().post(`/api/v3/messages/${id}/replies`).set(alice.auth).send({ body: 'Or seven.' }).expect(200);
      const rows = await queued();
      expect(rows.map((row) => [row.user_id, row.topic_id])).to.deep.equal([
        [bob.id, id],
        [carol.id, id],
      ]);
      // Carol reads it before the mail goes: nothing is mailed to her.
      await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(200);
      await api().get(`/api/v3/messages/${id}/replies`).set(carol.auth).expect(200);
      await startWorker();
      await delayPasses();
      const [mail] = await sink.waitFor(1);
      await settled();
      expect(sink.received).to.have.length(1);
      expect(mail!.to).to.deep.equal(['bob@example.com']);
      const { parsed } = mail!;
      expect(parsed.subject).to.equal(`[${new URL(PUBLIC_URL).host}] Message: Our plans`);
      expect(parsed.text).to.contain('2 new messages in “Our plans”');
      expect(parsed.text).to.contain('Shall we meet at **six**?');
      expect(parsed.text).to.contain('Or seven.');
      expect(parsed.text).to.contain(`${PUBLIC_URL}/messages/${id}`);
      expect(String(parsed.html)).to.match(/<strong[^>]*>six<\/strong>/);
      expect(parsed.inReplyTo).to.equal(`<message-${id}@${new URL(PUBLIC_URL).hostname}>`);
      expect(mail!.raw.toString()).to.contain(`messages.${new URL(PUBLIC_URL).hostname}`);
      // No notification was made for it: GET /notifications is homeland's five types only.
      for (const user of [bob, carol]) {
        expect((await api().get('/api/v3/notifications').set(user.auth).expect(200)).body.notifications).to.deep.equal([]);
      }

      const [replyTo] = addresses(parsed.replyTo);
      const inbound = configuredWith({
        mail: { ...testEnv().config.mail, replyAddress: REPLY_ADDRESS, inboundToken: 'the provider' },
      }).app;
      const answer = replyFrom('gmail', {
        from: 'bob@example.com',
        to: replyTo!,
        messageId: `answer-${Date.now()}@mail.example.com`,
        reply: 'Six works for me.',
      });
      const posted = await checkedApi(inbound)
        .post('/api/v3/inbound-email')
        .set('Authorization', 'Bearer the provider')
        .set('Content-Type', 'message/rfc822')
        .send(answer)
        .expect(200);
      expect(posted.body).to.deep.equal({ outcome: 'posted', reason: null });
      const replies = (await api().get(`/api/v3/messages/${id}/replies`).set(alice.auth).expect(200)).body.replies as {
        body: string;
        user: { login: string };
      }[];
      expect(replies.map((reply) => [reply.user.login, reply.body])).to.deep.equal([
        ['alice', 'Or seven.'],
        ['bob', 'Six works for me.'],
      ]);
      // The log of received mail (forumctl mail inbound) keeps no conversation's id.
      const logged = await testEnv().sql<{ topic_id: number | null; outcome: string }>(
        'select topic_id, outcome from inbound_mails',
      );
      expect(logged).to.deep.equal([{ topic_id: null, outcome: 'posted' }]);
    });

    it('follows email_messages: never mails nothing, and the mail’s unsubscribe link turns it off', async () => {
      await api().put('/api/v3/users/me/preferences').set(bob.auth).send({ email_messages: 'never' }).expect(200);
      const id = await send(alice, ['bob', 'carol'], 'Quiet', 'Anyone?');
      expect((await queued()).map((row) => row.user_id)).to.deep.equal([carol.id]);
      await startWorker();
      await delayPasses();
      const [mail] = await sink.waitFor(1);
      expect(mail!.to).to.deep.equal(['carol@example.com']);
      const key = keys().unsubscribeKey(carol.id, 'messages');
      expect(mail!.raw.toString().replace(/\r\n[ \t]+/g, ' ')).to.contain(`/account/unsubscribe?key=${key}`);
      await api().post(`/account/unsubscribe?key=${key}`).type('form').send('List-Unsubscribe=One-Click').expect(200);
      const prefs = (await api().get('/api/v3/users/me/preferences').set(carol.auth).expect(200)).body.preferences;
      expect(prefs).to.include({ email_messages: 'never', email_notifications: 'mentions_and_replies' });
      await api().post(`/api/v3/messages/${id}/replies`).set(alice.auth).send({ body: 'Hello?' }).expect(200);
      expect(await queued()).to.deep.equal([]);
    });
  });
});
