import { expect } from 'chai';
import type { Container } from 'inversify';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { INBOUND_MAIL_MAX_BYTES } from '../../src/application/mail/inbound.js';
import { ReceiveMail } from '../../src/application/mail/receive-mail.js';
import { MailTokenKeys } from '../../src/application/ports.js';
import { InboundSmtpListener } from '../../src/adapters/mail/inbound-smtp.js';
import { api, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { configuredWith, testEnv } from '../support/env.js';
import { plainMail, replyFrom, withAttachment } from '../support/inbound-mail.js';
import { until } from '../support/wait.js';
import { freePort } from '../support/mail-sink.js';
import { startServerProcess } from '../support/server-process.js';

/**
 * Reply by e-mail through the built-in SMTP listener (contract §17), started on a free port, with nodemailer as a
 * real SMTP client: what a sender's mail server does. Each refusal is an SMTP reply its sender's server would
 * bounce with; each mail is recorded as the endpoint's are.
 */
describe('the SMTP listener of reply by e-mail (INBOUND_SMTP_PORT)', function () {
  this.timeout(60_000);
  let container: Container;
  let listener: InboundSmtpListener;
  let bob: TestUser;
  let topicId: number;
  let sequence = 0;
  const notices: string[] = [];

  beforeEach(async () => {
    const env = testEnv();
    ({ container } = configuredWith({ mail: { ...env.config.mail, replyAddress: 'reply+%{key}@forum.test' } }));
    listener = await InboundSmtpListener.start(container.get(ReceiveMail), {
      port: 0,
      host: '127.0.0.1',
      scope: env.scope,
      notice: (message) => notices.push(message),
    });
    const alice = await makeUser('alice');
    bob = await makeUser('bob');
    topicId = await makeTopic(alice, await makeNode('General'), 'A topic', 'Is there a way to page the replies?');
  });

  afterEach(async () => {
    await listener.stop();
    expect(notices).to.deep.equal([]);
  });

  const address = (userId = bob.id, topic = topicId) =>
    `reply+${container.get<MailTokenKeys>(MailTokenKeys).replyKey(userId, topic)}@forum.test`;
  const messageId = () => `smtp-${++sequence}-${Date.now()}@mail.example.com`;
  const transport = () =>
    nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true, logger: false });
  const sendRaw = (raw: Buffer, envelope: { from: string; to: string[] }) => transport().sendMail({ envelope, raw });
  const replies = async () =>
    (await api().get(`/api/v3/topics/${topicId}/replies`).expect(200)).body.replies as { body: string }[];
  const recorded = () =>
    testEnv().sql<{ via: string; outcome: string; reason: string | null; sender: string | null; size: number }>(
      'select via, outcome, reason, sender, size from inbound_mails order by id',
    );

  /** The SMTP error nodemailer reports: its code and text. */
  async function refusal(sending: Promise<unknown>): Promise<{ responseCode: number; response: string }> {
    try {
      await sending;
    } catch (error) {
      return error as { responseCode: number; response: string };
    }
    throw new Error('the mail was accepted');
  }

  it('advertises SIZE and neither AUTH nor STARTTLS, and posts a Gmail reply with just the new text', async () => {
    const socket = net.connect(listener.port, '127.0.0.1');
    let said = '';
    socket.on('data', (chunk: Buffer) => (said += chunk.toString()));
    await until(() => said.startsWith('220 '), 5_000);
    socket.write('EHLO client.example\r\n');
    await until(() => /^250 /m.test(said.split('\r\n').slice(1).join('\n')), 5_000);
    socket.end('QUIT\r\n');
    expect(said, said).to.match(new RegExp(`^250[- ]SIZE ${INBOUND_MAIL_MAX_BYTES}\r$`, 'm'));
    expect(said).not.to.match(/AUTH|STARTTLS/);
    const raw = replyFrom('gmail', { from: 'bob@example.com', to: address(), messageId: messageId(), reply: 'By SMTP, thanks!' });
    const info = await sendRaw(raw, { from: 'bob@example.com', to: [address()] });
    expect(info.response).to.match(/^250 .*posted/);
    expect((await replies()).map((reply) => reply.body)).to.deep.equal(['By SMTP, thanks!']);
    expect(await recorded()).to.deep.equal([
      { via: 'smtp', outcome: 'posted', reason: null, sender: 'bob@example.com', size: raw.length },
    ]);
  });

  it('posts Outlook, Apple Mail and 163 replies the same way', async () => {
    for (const [client, text] of [
      ['outlook', 'Outlook says yes.'],
      ['apple', 'Apple says yes.'],
      ['163', '网易说好。'],
    ] as const) {
      const raw = replyFrom(client, { from: 'bob@example.com', to: address(), messageId: messageId(), reply: text });
      await sendRaw(raw, { from: 'bob@example.com', to: [address()] });
    }
    expect((await replies()).map((reply) => reply.body)).to.deep.equal(['Outlook says yes.', 'Apple says yes.', '网易说好。']);
  });

  it('refuses at RCPT TO (550) an address that is not ours or whose key does not read; nothing is received', async () => {
    const forged = address().replace(/[0-9a-f]{32}@/, `${'f'.repeat(32)}@`);
    for (const to of ['postmaster@forum.test', 'bob@example.com', forged]) {
      const raw = plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: 'x' });
      const error = await refusal(sendRaw(raw, { from: 'bob@example.com', to: [to] }));
      expect(error.responseCode).to.equal(550);
    }
    expect(await recorded()).to.deep.equal([]);
  });

  it('answers a refused mail with 550 and its reason (the sender’s server bounces it to them), and records it', async () => {
    const forged = plainMail({ from: 'mallory@example.com', to: address(), messageId: messageId(), reply: 'hi' });
    const error = await refusal(sendRaw(forged, { from: 'mallory@example.com', to: [address()] }));
    expect(error.responseCode).to.equal(550);
    expect(error.response).to.contain("sender is not the key's user");
    await testEnv().sql('update topics set closed_at = now() where id = $1', [topicId]);
    const late = replyFrom('gmail', { from: 'bob@example.com', to: address(), messageId: messageId(), reply: 'late' });
    expect((await refusal(sendRaw(late, { from: 'bob@example.com', to: [address()] }))).response).to.contain('topic closed');
    expect(await replies()).to.deep.equal([]);
    expect((await recorded()).map((row) => [row.via, row.outcome, row.reason])).to.deep.equal([
      ['smtp', 'refused', "sender is not the key's user"],
      ['smtp', 'refused', 'topic closed'],
    ]);
  });

  it('refuses a bounce (MAIL FROM:<>) and an auto-reply without posting', async () => {
    const bounce = plainMail({
      from: 'MAILER-DAEMON@example.com',
      to: address(),
      messageId: messageId(),
      reply: 'Undeliverable',
    });
    expect((await refusal(sendRaw(bounce, { from: '', to: [address()] }))).response).to.contain('auto-reply');
    const away = plainMail({
      from: 'bob@example.com',
      to: address(),
      messageId: messageId(),
      reply: 'I am away.',
      headers: ['Auto-Submitted: auto-replied'],
    });
    expect((await refusal(sendRaw(away, { from: 'bob@example.com', to: [address()] }))).response).to.contain('auto-reply');
    expect(await replies()).to.deep.equal([]);
  });

  it('refuses a 30 MB message with 552 and records it; the listener goes on taking mail', async () => {
    const raw = withAttachment({ from: 'bob@example.com', to: address(), messageId: messageId(), reply: 'big' }, 30_000_000);
    const error = await refusal(sendRaw(raw, { from: 'bob@example.com', to: [address()] }));
    expect(error.responseCode).to.equal(552);
    const [row] = await recorded();
    expect(row).to.deep.include({ via: 'smtp', outcome: 'refused', reason: 'too large', sender: 'bob@example.com' });
    expect(row!.size).to.be.greaterThan(30_000_000);
    const small = plainMail({ from: 'bob@example.com', to: address(), messageId: messageId(), reply: 'small' });
    await sendRaw(small, { from: 'bob@example.com', to: [address()] });
    expect((await replies()).map((reply) => reply.body)).to.deep.equal(['small']);
  });

  it('accepts a copy of a mail already posted (250) without posting it again', async () => {
    const raw = replyFrom('apple', { from: 'bob@example.com', to: address(), messageId: messageId(), reply: 'Once.' });
    await sendRaw(raw, { from: 'bob@example.com', to: [address()] });
    const again = await sendRaw(raw, { from: 'bob@example.com', to: [address()] });
    expect(again.response).to.match(/^250 .*posted before/);
    expect((await replies()).map((reply) => reply.body)).to.deep.equal(['Once.']);
  });

  it('unsubscribes by a mail to the unsubscribe address', async () => {
    const to = `reply+${container.get<MailTokenKeys>(MailTokenKeys).unsubscribeKey(bob.id, 'digest')}@forum.test`;
    const raw = plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: '', subject: 'unsubscribe' });
    await sendRaw(raw, { from: 'bob@example.com', to: [to] });
    const [user] = await testEnv().sql<{ email_digest: string }>('select email_digest from users where id = $1', [bob.id]);
    expect(user!.email_digest).to.equal('none');
  });

  it('is started by the server process on INBOUND_SMTP_PORT; with WEB_CONCURRENCY=2 the workers share the port', async () => {
    const port = await freePort();
    const server = await startServerProcess({
      DATABASE_URL: testEnv().config.databaseUrl!,
      WEB_CONCURRENCY: '2',
      SECRET_KEY: testEnv().config.secretKey!,
      REPLY_BY_EMAIL: 'reply+%{key}@forum.test',
      INBOUND_SMTP_PORT: String(port),
      MAIL_CONCURRENCY: '0',
      WEBHOOKS_CONCURRENCY: '0',
    });
    try {
      await until(() => server.output().split('SMTP listener started').length === 3, 20_000);
      const to = address();
      const client = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
      for (let i = 0; i < 4; i++) {
        const raw = plainMail({ from: 'bob@example.com', to, messageId: messageId(), reply: `mail ${i}` });
        await client.sendMail({ envelope: { from: 'bob@example.com', to: [to] }, raw });
      }
      expect((await replies()).map((reply) => reply.body)).to.deep.equal(['mail 0', 'mail 1', 'mail 2', 'mail 3']);
    } finally {
      expect(await server.terminate(), server.output()).to.equal(0);
    }
  });
});
