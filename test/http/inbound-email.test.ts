import { expect } from 'chai';
import type Koa from 'koa';
import type { Container } from 'inversify';
import { MailTokenKeys } from '../../src/application/ports.js';
import { api, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { configuredWith, testEnv } from '../support/env.js';
import { htmlOnlyReply, plainMail, replyFrom, type Client, withAttachment } from '../support/inbound-mail.js';
import { checkedApi } from '../support/openapi.js';

const TOKEN = 'an inbound token of the provider';
const REPLY_ADDRESS = 'reply+%{key}@forum.test';

interface Recorded {
  via: string;
  message_id: string | null;
  sender: string | null;
  user_id: number | null;
  topic_id: number | null;
  outcome: string;
  reason: string | null;
  reply_id: number | null;
  size: number;
}

/** Reply by e-mail through POST /api/v3/inbound-email (contract §17), on an app with it configured. */
describe('POST /api/v3/inbound-email (reply by e-mail)', () => {
  let app: Koa;
  let container: Container;
  let alice: TestUser;
  let bob: TestUser;
  let topicId: number;
  let sequence = 0;

  beforeEach(async () => {
    const env = testEnv();
    ({ app, container } = configuredWith({
      mail: { ...env.config.mail, replyAddress: REPLY_ADDRESS, inboundToken: TOKEN },
    }));
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    topicId = await makeTopic(alice, await makeNode('General'), 'A topic', 'Is there a way to page the replies?');
  });

  const keys = () => container.get<MailTokenKeys>(MailTokenKeys);
  const replyAddress = (userId: number, topic: number) => `reply+${keys().replyKey(userId, topic)}@forum.test`;
  const messageId = () => `reply-${++sequence}-${Date.now()}@mail.example.com`;
  const send = (raw: Buffer, type = 'message/rfc822') =>
    checkedApi(app).post('/api/v3/inbound-email').set('Authorization', `Bearer ${TOKEN}`).set('Content-Type', type).send(raw);
  const recorded = () =>
    testEnv().sql<Recorded>(
      'select via, message_id, sender, user_id, topic_id, outcome, reason, reply_id, size from inbound_mails order by id',
    );
  const replies = async () =>
    (await api().get(`/api/v3/topics/${topicId}/replies`).expect(200)).body.replies as {
      body: string;
      user: { login: string };
    }[];

  const clients: [Client, string][] = [
    ['gmail', 'Yes: `offset` and `limit` on the replies list.\n\nThanks, Bob'],
    ['outlook', 'Fixed in 2.1, see the changelog.'],
    ['apple', 'Agreed, paging works.'],
    ['qq', '收到，明天试试分页。'],
    ['163', '可以的，谢谢！'],
  ];
  for (const [client, text] of clients) {
    it(`posts a ${client} reply as the key's user, with only the new text`, async () => {
      const id = messageId();
      const raw = replyFrom(client, { from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: id, reply: text });
      const res = await send(raw).expect(200);
      expect(res.body).to.deep.equal({ outcome: 'posted', reason: null });
      const [reply] = await replies();
      expect(reply!.body).to.equal(text);
      expect(reply!.user.login).to.equal('bob');
      const [row] = await recorded();
      expect(row).to.deep.include({ via: 'http', message_id: id, sender: 'bob@example.com', user_id: bob.id, topic_id: topicId });
      expect(row).to.deep.include({ outcome: 'posted', reason: null, size: raw.length });
      expect(row!.reply_id).to.be.a('number');
    });
  }

  it('sets off what a reply sets off: the author’s notification, the counters', async () => {
    const raw = replyFrom('gmail', {
      from: 'BOB@Example.com',
      to: replyAddress(bob.id, topicId),
      messageId: messageId(),
      reply: 'Hi @alice',
    });
    await send(raw).expect(200, { outcome: 'posted', reason: null });
    const topic = (await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic as { replies_count: number };
    expect(topic.replies_count).to.equal(1);
    const unread = await api().get('/api/v3/notifications/unread_count').set(alice.auth).expect(200);
    expect(unread.body.count).to.be.greaterThan(0);
    const [notification] = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications as {
      type: string;
    }[];
    expect(notification!.type).to.be.oneOf(['TopicReply', 'Mention']);
  });

  it('takes an HTML-only mail, and a text/plain or octet-stream body', async () => {
    const to = replyAddress(bob.id, topicId);
    await send(htmlOnlyReply({ from: 'bob@example.com', to, messageId: messageId(), reply: 'From HTML <b>only</b>' })).expect(
      200,
      {
        outcome: 'posted',
        reason: null,
      },
    );
    await send(plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: 'As text/plain' }), 'text/plain').expect(
      200,
      {
        outcome: 'posted',
        reason: null,
      },
    );
    await send(
      plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: 'As bytes' }),
      'application/octet-stream',
    ).expect(200, { outcome: 'posted', reason: null });
    expect((await replies()).map((reply) => reply.body)).to.deep.equal(['From HTML <b>only</b>', 'As text/plain', 'As bytes']);
  });

  describe('refuses, records why, and posts nothing', () => {
    async function refused(raw: Buffer, reason: string) {
      const res = await send(raw).expect(200);
      expect(res.body).to.deep.equal({ outcome: 'refused', reason });
      expect(await replies()).to.deep.equal([]);
      const rows = await recorded();
      expect(rows[rows.length - 1]).to.deep.include({ outcome: 'refused', reason, reply_id: null });
      return rows[rows.length - 1]!;
    }

    it('a message that does not read as one (no headers, broken MIME without a From)', async () => {
      await refused(Buffer.from('\u0000\u0001 this is not a mail at all \r\n\r\n--'), 'malformed');
      const broken = Buffer.from(
        'Content-Type: multipart/alternative; boundary="x"\r\nTo: nobody\r\n\r\n--x\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%not base64\r\n',
      );
      await refused(broken, 'malformed');
    });

    it('a key that does not read (forged, or altered), and an address that is not ours', async () => {
      const key = keys().replyKey(bob.id, topicId);
      const forged = key.replace(/-[0-9a-f]{32}$/, `-${'0'.repeat(32)}`);
      const otherTopic = key.replace(`-${topicId}-`, `-${topicId + 1}-`);
      for (const to of [`reply+${forged}@forum.test`, `reply+${otherTopic}@forum.test`, 'someone@forum.test']) {
        const row = await refused(
          plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: 'hello' }),
          'unknown key',
        );
        expect(row.user_id).to.equal(null);
      }
    });

    it("a sender who is not the key's user", async () => {
      const raw = plainMail({
        from: 'mallory@example.com',
        to: replyAddress(bob.id, topicId),
        messageId: messageId(),
        reply: 'spam',
      });
      const row = await refused(raw, "sender is not the key's user");
      expect(row).to.deep.include({ sender: 'mallory@example.com', user_id: bob.id, topic_id: topicId });
    });

    it('a reply to a closed topic, and from a blocked user', async () => {
      await testEnv().sql('update topics set closed_at = now() where id = $1', [topicId]);
      await refused(
        replyFrom('gmail', { from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: messageId(), reply: 'late' }),
        'topic closed',
      );
      await testEnv().sql('update topics set closed_at = null where id = $1', [topicId]);
      await testEnv().sql("update users set role = 'blocked' where id = $1", [bob.id]);
      await refused(
        replyFrom('apple', {
          from: 'bob@example.com',
          to: replyAddress(bob.id, topicId),
          messageId: messageId(),
          reply: 'me again',
        }),
        'not allowed to reply',
      );
    });

    it('a reply of an account that was left (anonymized)', async () => {
      await testEnv().sql(
        "update users set email = 'deleted_' || id || '@deleted.invalid', login = 'deleted_' || id, state = 'left' where id = $1",
        [bob.id],
      );
      await refused(
        plainMail({
          from: `deleted_${bob.id}@deleted.invalid`,
          to: replyAddress(bob.id, topicId),
          messageId: messageId(),
          reply: 'x',
        }),
        'unknown user',
      );
    });

    it('an auto-reply or a bounce: Auto-Submitted, Precedence, the null return path, a delivery report', async () => {
      const to = replyAddress(bob.id, topicId);
      for (const headers of [
        ['Auto-Submitted: auto-replied'],
        ['Precedence: bulk'],
        ['X-Autoreply: yes'],
        ['Return-Path: <>'],
        ['Content-Type: multipart/report; report-type=delivery-status; boundary="r"'],
      ]) {
        const raw = plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: 'I am away until Monday.', headers });
        await refused(raw, 'auto-reply');
      }
      // `Auto-Submitted: no` is a person's mail.
      const person = plainMail({
        from: 'bob@example.com',
        to,
        messageId: messageId(),
        reply: 'Back.',
        headers: ['Auto-Submitted: no'],
      });
      await send(person).expect(200, { outcome: 'posted', reason: null });
    });

    it('a mail with nothing but the quote and a signature', async () => {
      await refused(
        replyFrom('outlook', { from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: messageId(), reply: '' }),
        'empty',
      );
    });
  });

  it('posts a Message-ID once: the provider’s retry is answered as refused (duplicate), one reply', async () => {
    const id = messageId();
    const raw = replyFrom('gmail', { from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: id, reply: 'Once.' });
    await send(raw).expect(200, { outcome: 'posted', reason: null });
    await send(raw).expect(200, { outcome: 'refused', reason: 'duplicate' });
    // At the same moment too: one of them posts.
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        send(
          replyFrom('qq', { from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: `${id}.2`, reply: '同时' }),
        ),
      ),
    );
    expect(answers.map((res) => res.body.outcome).sort()).to.deep.equal(['posted', 'refused', 'refused']);
    expect((await replies()).map((reply) => reply.body)).to.deep.equal(['Once.', '同时']);
    const rows = await recorded();
    expect(rows.filter((row) => row.outcome === 'posted')).to.have.length(2);
    expect(rows.filter((row) => row.reason === 'duplicate')).to.have.length(3);
  });

  it('unsubscribes by a mail to the List-Unsubscribe address', async () => {
    const to = `reply+${keys().unsubscribeKey(bob.id, 'notifications')}@forum.test`;
    const raw = plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: '', subject: 'unsubscribe' });
    await send(raw).expect(200, { outcome: 'unsubscribed', reason: null });
    const [user] = await testEnv().sql<{ email_notifications: string }>('select email_notifications from users where id = $1', [
      bob.id,
    ]);
    expect(user!.email_notifications).to.equal('none');
    expect(await recorded()).to.deep.equal([
      {
        via: 'http',
        message_id: raw.toString().match(/Message-ID: <([^>]+)>/)![1],
        sender: 'bob@example.com',
        user_id: bob.id,
        topic_id: null,
        outcome: 'unsubscribed',
        reason: null,
        reply_id: null,
        size: raw.length,
      },
    ]);
  });

  it('refuses a message over 10 MiB with 413 in the contract’s format, and records it', async () => {
    const raw = withAttachment(
      { from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: messageId(), reply: 'big' },
      30_000_000,
    );
    const res = await send(raw).expect(413);
    expect(res.body).to.deep.include({ error: 'PayloadTooLarge' });
    expect(await replies()).to.deep.equal([]);
    const [row] = await recorded();
    expect(row).to.deep.include({ outcome: 'refused', reason: 'too large', size: raw.length, message_id: null });
    // The connection was not left half-read: the next request is answered.
    await send(
      plainMail({ from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: messageId(), reply: 'small' }),
    ).expect(200, {
      outcome: 'posted',
      reason: null,
    });
  });

  it('needs the token (401), a raw message (415), and is 404 when not configured, in the contract’s format', async () => {
    const raw = plainMail({ from: 'bob@example.com', to: replyAddress(bob.id, topicId), messageId: messageId(), reply: 'x' });
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, bob.auth.Authorization]) {
      const request = checkedApi(app).post('/api/v3/inbound-email').set('Content-Type', 'message/rfc822');
      if (authorization) request.set('Authorization', authorization);
      const res = await request.send(raw).expect(401);
      expect(res.body.error).to.equal('Unauthorized');
    }
    const json = await checkedApi(app)
      .post('/api/v3/inbound-email')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send({ raw: raw.toString() })
      .expect(415);
    expect(json.body.error).to.equal('UnsupportedMediaType');
    const off = await api()
      .post('/api/v3/inbound-email')
      .set('Authorization', `Bearer ${TOKEN}`)
      .set('Content-Type', 'message/rfc822')
      .send(raw)
      .expect(404);
    expect(off.body).to.deep.equal({ error: 'ResourceNotFound' });
    const withoutReplyAddress = configuredWith({ mail: { ...testEnv().config.mail, inboundToken: TOKEN } }).app;
    await checkedApi(withoutReplyAddress)
      .post('/api/v3/inbound-email')
      .set('Authorization', `Bearer ${TOKEN}`)
      .send(raw)
      .expect(404);
    expect(await recorded()).to.deep.equal([]);
  });
});
