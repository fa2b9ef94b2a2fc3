import { expect } from 'chai';
import { DomainEvents } from '../../src/application/events.js';
import { DeliverMail } from '../../src/application/mail/deliver-mail.js';
import { Mailer } from '../../src/application/mail/mailer.js';
import { MailTokenKeys, UnitOfWork } from '../../src/application/ports.js';
import { api, makeUser, type TestUser } from '../support/builders.js';
import { PRIVATE_MAIL } from '../../src/application/mail/mailbox.js';
import { forumctl } from '../support/cli.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';
import { rm } from 'node:fs/promises';

interface Listed {
  folder: string;
  mails: { id: string; date: string; to: string; subject: string }[];
}

interface Shown {
  id: string;
  date: string;
  to: string;
  subject: string;
  headers: { name: string; value: string }[];
  text: string;
  html: string;
}

/** A sign-up's verification, queued as a use case queues it and sent as the worker sends it: into the folder. */
async function verificationMail(user: TestUser): Promise<string> {
  const env = testEnv();
  const keys = env.container.get<MailTokenKeys>(MailTokenKeys);
  const id = keys.newId();
  await env.sql("update users set state = 'unverified' where id = $1", [user.id]);
  await env.scope(() =>
    env.container.get<UnitOfWork>(UnitOfWork).run(async () => {
      await env.persistence.sql.all(
        `insert into account_tokens (id, user_id, purpose, digest, expires_at) values ($1, $2, 'verify', $3, now() + interval '1 day')`,
        [id, user.id, keys.digest(keys.tokenFor(id))],
      );
      await env.container
        .get<DomainEvents>(DomainEvents)
        .record({ type: 'account.token_issued', userId: user.id, tokenId: id, purpose: 'verify' });
    }),
  );
  const outcome = await env.scope(() => env.container.get(DeliverMail).execute({ kind: 'verify', userId: user.id, tokenId: id }));
  expect(outcome).to.equal('sent');
  return id;
}

describe('forumctl mail (the data folder, without SMTP_URL)', () => {
  beforeEach(async () => {
    await rm(testEnv().config.mail.folder, { recursive: true, force: true });
  });

  it('lists nothing, and says where it looked, before any mail was written', async () => {
    const listed = await forumctl(['mail', 'list', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.json<Listed>()).to.deep.equal({ folder: testEnv().config.mail.folder, mails: [] });
    expect((await forumctl(['mail', 'list'])).stderr).to.contain(`no mail in ${testEnv().config.mail.folder}`);
  });

  it('lists mail newest first and shows one: headers and the text part, both parts with --json', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    await testEnv().sql("update users set locale = 'zh-CN' where id = $1", [bob.id]);
    const tokenId = await verificationMail(alice);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await verificationMail(bob);

    const listed = await forumctl(['mail', 'list', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    const { mails } = listed.json<Listed>();
    expect(mails.map((m) => [m.to, m.subject])).to.deep.equal([
      ['bob@example.com', '确认你在 forum.test 的邮箱地址'],
      ['alice@example.com', 'Confirm your e-mail address at forum.test'],
    ]);
    expect(new Date(mails[0]!.date).getTime()).to.be.closeTo(Date.now(), 60_000);
    expect((await forumctl(['mail', 'list', '--limit', '1', '--json'])).json<Listed>().mails).to.have.length(1);

    const table = await forumctl(['mail', 'list']);
    expect(table.stdout).to.match(/^id\s+date\s+to\s+subject/);
    expect(table.stdout).to.contain(mails[1]!.id).and.contain('alice@example.com');

    const shown = await forumctl(['mail', 'show', mails[1]!.id]);
    expect(shown.code, shown.stderr).to.equal(0);
    expect(shown.stdout).to.contain('Subject: Confirm your e-mail address at forum.test');
    expect(shown.stdout).to.contain('To: alice@example.com').and.contain('From: forum <noreply@forum.test>');
    expect(shown.stdout).to.match(/Message-ID: <[0-9a-f-]{36}@forum\.test>/);
    expect(shown.stdout)
      .to.contain('Auto-Submitted: auto-generated')
      .and.match(/Date: \w{3}, \d+ \w{3} \d{4}/);
    expect(shown.stdout).to.not.contain('Content-Transfer-Encoding').and.not.contain('<html');
    // The link a new user follows, verbatim from the text part; its token is the row's.
    const link = new RegExp(`${PUBLIC_URL}/account/verify\\?token=([A-Za-z0-9_-]{43})`).exec(shown.stdout);
    expect(link, shown.stdout).to.not.equal(null);
    const keys = testEnv().container.get<MailTokenKeys>(MailTokenKeys);
    const [row] = await testEnv().sql<{ digest: string }>('select digest from account_tokens where id = $1', [tokenId]);
    expect(keys.digest(link![1]!)).to.equal(row!.digest);

    const json = (await forumctl(['mail', 'show', mails[0]!.id, '--json'])).json<Shown>();
    expect(json).to.include({ id: mails[0]!.id, to: 'bob@example.com', subject: '确认你在 forum.test 的邮箱地址' });
    expect(json.text).to.contain('bob，你好：').and.contain('确认邮箱地址：');
    expect(json.html).to.contain('<html lang="zh-CN">').and.contain('确认邮箱地址</a>');
    expect(json.headers.map((h) => h.name)).to.include.members(['From', 'To', 'Subject', 'Message-ID', 'Date', 'Content-Type']);
  });

  it('shows nothing of a mail that carries a private message: its recipient and date only (contract §24)', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const sent = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['bob'], title: 'Secret plans', body: 'the private words' })
      .expect(200);
    const env = testEnv();
    const job = { kind: 'messages', userId: bob.id, topicId: sent.body.message.id, since: new Date(0).toISOString() } as const;
    expect(await env.scope(() => env.container.get(DeliverMail).execute(job))).to.equal('sent');

    const { mails } = (await forumctl(['mail', 'list', '--json'])).json<Listed>();
    expect(mails.map((m) => [m.to, m.subject])).to.deep.equal([['bob@example.com', PRIVATE_MAIL]]);
    for (const args of [
      ['mail', 'show', mails[0]!.id],
      ['mail', 'show', mails[0]!.id, '--json'],
      ['mail', 'list'],
    ]) {
      const shown = await forumctl(args);
      expect(shown.code, shown.stderr).to.equal(0);
      expect(shown.stdout).not.to.contain('Secret plans').and.not.to.contain('private words').and.not.to.contain('reply+');
    }
    expect((await forumctl(['mail', 'show', mails[0]!.id])).stdout).to.contain('To: bob@example.com');
  });

  it('is for administrators, names an unknown mail, and refuses an id that is not one', async () => {
    const alice = await makeUser('alice');
    await makeUser('bob');
    await testEnv().container.get<Mailer>(Mailer).send({
      to: 'someone@example.com',
      subject: 'x',
      text: 'y',
      html: '<p>y</p>',
      autoSubmitted: true,
    });
    const [mail] = (await forumctl(['mail', 'list', '--json'])).json<Listed>().mails;

    const member = await forumctl(['mail', 'show', mail!.id, '--as', 'bob']);
    expect(member.code).to.equal(3);
    expect(member.stderr).to.contain('reading mail is for administrators; bob is a member');
    expect((await forumctl(['mail', 'list', '--as', 'bob', '--json'])).code).to.equal(3);
    await testEnv().sql("update users set role = 'admin' where id = $1", [alice.id]);
    expect((await forumctl(['mail', 'list', '--as', 'alice'])).code).to.equal(0);

    const unknown = await forumctl(['mail', 'show', '20260101T000000000Z-00000000']);
    expect(unknown.code).to.equal(4);
    expect(unknown.stderr).to.contain('mail 20260101T000000000Z-00000000');
    const traversal = await forumctl(['mail', 'show', '../secret_key']);
    expect(traversal.code).to.equal(2);
  });
});
