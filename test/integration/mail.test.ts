import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { type AddressObject, simpleParser } from 'mailparser';
import { DomainEvents } from '../../src/application/events.js';
import { DeliverMail, MailFacts } from '../../src/application/mail/deliver-mail.js';
import { MailComposer } from '../../src/application/mail/mail-composer.js';
import type { MailJob } from '../../src/application/mail/mail-jobs.js';
import { Mailer } from '../../src/application/mail/mailer.js';
import { Clock, MailTokenKeys, UnitOfWork } from '../../src/application/ports.js';
import type { DomainEvent, MailTokenPurpose } from '../../src/domain/events.js';
import { EmlFolder } from '../../src/adapters/mail/eml-folder.js';
import type { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import { mailDeliveryTask } from '../../src/adapters/jobs/tasks/mail-delivery.js';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { MAIL_TASK } from '../../src/adapters/persistence/mail/mail-task.js';
import { makeUser, type TestUser } from '../support/builders.js';
import { startJobs } from '../support/jobs.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';
import { freePort, MailSink, SINK_PASSWORD, SINK_USER, type ReceivedMail } from '../support/mail-sink.js';
import { startServerProcess } from '../support/server-process.js';
import { until } from '../support/wait.js';

const FROM = 'forum <noreply@forum.test>';
const HOUR = 3_600_000;

function service<T>(id: symbol | (abstract new (...args: never[]) => T)): T {
  return testEnv().container.get<T>(id as never);
}

/** The SMTP_URL of a sink: the sink's account in the URL, its password percent-encoded. */
const smtpUrl = (port: number, query = '') =>
  `smtp://${SINK_USER}:${encodeURIComponent(SINK_PASSWORD)}@127.0.0.1:${port}${query}`;

function deliverThrough(mailer: Mailer): DeliverMail {
  const { topicUrl, from } = testEnv().config.mail;
  return new DeliverMail(service(MailFacts), service(MailTokenKeys), mailer, service(Clock), service(MailComposer), {
    publicUrl: PUBLIC_URL,
    topicUrl,
    replyAddress: null,
    from,
  });
}

/** Records `event` as a use case will: inside the unit of work, next to the change (`change`, in SQL). */
async function recordInUnitOfWork(event: DomainEvent, change?: () => Promise<unknown>): Promise<void> {
  const env = testEnv();
  await env.scope(() =>
    service<UnitOfWork>(UnitOfWork).run(async () => {
      await change?.();
      await service<DomainEvents>(DomainEvents).record(event);
    }),
  );
}

/** A mail link's row and its event, as sign-up, forgot-password and e-mail change will write them. */
async function issueToken(
  user: TestUser,
  purpose: MailTokenPurpose,
  options: { email?: string; expiresInMs?: number } = {},
): Promise<string> {
  const keys = service<MailTokenKeys>(MailTokenKeys);
  const sql = testEnv().persistence.sql;
  const id = keys.newId();
  await recordInUnitOfWork({ type: 'account.token_issued', userId: user.id, tokenId: id, purpose }, () =>
    sql.all(
      `insert into account_tokens (id, user_id, purpose, digest, email, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [id, user.id, purpose, keys.digest(keys.tokenFor(id)), options.email ?? null, (options.expiresInMs ?? 24 * HOUR) / 1000],
    ),
  );
  return id;
}

interface QueuedJob {
  id: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
}

async function mailJobs(): Promise<QueuedJob[]> {
  return testEnv().sql<QueuedJob>(
    `select j.id, j.payload, j.attempts, j.max_attempts, j.last_error
     from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = $1 order by j.id`,
    [MAIL_TASK],
  );
}

async function startWorker(deliver: DeliverMail): Promise<JobRuntime> {
  return startJobs([mailDeliveryTask(deliver, { identifier: MAIL_TASK, concurrency: 2 })]);
}

const address = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((group) => group.value.map((a) => a.address));

/** The token in a mail's link to `page`, from its text part (and the same link in its HTML part). */
function linkToken(mail: ReceivedMail, page: string): string {
  const pattern = new RegExp(`${PUBLIC_URL.replace(/\./g, '\\.')}${page}\\?token=([A-Za-z0-9_-]+)`);
  const match = pattern.exec(mail.parsed.text ?? '');
  expect(match, mail.parsed.text).to.not.equal(null);
  expect(String(mail.parsed.html)).to.contain(`href="${match![0]}"`);
  return match![1]!;
}

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('it did not fail');
}

async function tokenDigest(id: string): Promise<string> {
  const [row] = await testEnv().sql<{ digest: string }>('select digest from account_tokens where id = $1', [id]);
  return row!.digest;
}

describe('mail (contract §17)', () => {
  let alice: TestUser;

  beforeEach(async () => {
    // Jobs left by other tests' accounts are not ours to send.
    await testEnv().sql(
      `delete from graphile_worker._private_jobs
       where task_id in (select id from graphile_worker._private_tasks where identifier = $1)`,
      [MAIL_TASK],
    );
    alice = await makeUser('alice');
    // Unverified, and with a password (a reset link for an account without one sets its first: another mail).
    await testEnv().sql("update users set state = 'unverified', password_hash = 'a hash' where id = $1", [alice.id]);
  });

  describe('a job in the transaction of the change', () => {
    it('queues one job per account event, holding kinds and ids only', async () => {
      const tokenId = await issueToken(alice, 'verify');
      await recordInUnitOfWork({ type: 'account.sign_up_repeated', userId: alice.id });
      await recordInUnitOfWork({ type: 'account.password_changed', userId: alice.id });
      await recordInUnitOfWork({ type: 'account.email_changed', userId: alice.id, previousEmail: 'old@example.com' });
      await recordInUnitOfWork({ type: 'account.approved', userId: alice.id });

      const jobs = await mailJobs();
      expect(jobs.map((job) => job.payload)).to.deep.equal([
        { kind: 'verify', userId: alice.id, tokenId },
        { kind: 'sign_up_repeated', userId: alice.id },
        { kind: 'password_changed', userId: alice.id },
        { kind: 'email_changed', userId: alice.id, previousEmail: 'old@example.com' },
        { kind: 'approved', userId: alice.id },
      ]);
      expect(jobs.every((job) => job.max_attempts === 12)).to.equal(true);
      // No token, link or digest anywhere in a job.
      const keys = service<MailTokenKeys>(MailTokenKeys);
      const everything = JSON.stringify(jobs);
      expect(everything).to.not.contain(keys.tokenFor(tokenId));
      expect(everything).to.not.contain(await tokenDigest(tokenId));
      expect(everything).to.not.contain('http');
    });

    it('queues nothing when the change rolls back', async () => {
      const failing = recordInUnitOfWork({ type: 'account.password_changed', userId: alice.id }, async () => {
        throw new Error('the change failed');
      });
      expect(await rejection(failing)).to.equal('the change failed');
      const later = testEnv().scope(() =>
        service<UnitOfWork>(UnitOfWork).run(async () => {
          await service<DomainEvents>(DomainEvents).record({ type: 'account.approved', userId: alice.id });
          throw new Error('failed after recording');
        }),
      );
      expect(await rejection(later)).to.equal('failed after recording');
      expect(await mailJobs()).to.deep.equal([]);
    });

    it('ignores events that send no mail', async () => {
      await recordInUnitOfWork({ type: 'user.created', userId: alice.id });
      expect(await mailJobs()).to.deep.equal([]);
    });
  });

  describe('sent over SMTP to a real server', () => {
    let sink: MailSink;
    let worker: JobRuntime | null = null;

    beforeEach(async () => {
      sink = await MailSink.start();
    });

    afterEach(async () => {
      await worker?.stop();
      worker = null;
      await sink.stop();
    });

    it('sends the verification mail: headers, both parts, a link whose token matches the row', async () => {
      worker = await startWorker(deliverThrough(new SmtpMailer(smtpUrl(sink.port), FROM, service(Clock))));
      const tokenId = await issueToken(alice, 'verify');

      const [mail] = await sink.waitFor(1);
      // The URL's credentials were used (its password percent-encoded), and the envelope matches the headers.
      expect(mail!.user).to.equal(SINK_USER);
      expect(mail!.from).to.equal('noreply@forum.test');
      expect(mail!.to).to.deep.equal(['alice@example.com']);
      const { parsed } = mail!;
      expect(parsed.messageId).to.match(/^<[0-9a-f-]{36}@forum\.test>$/);
      expect(parsed.date!.getTime()).to.be.closeTo(Date.now(), 60_000);
      expect(parsed.headers.get('auto-submitted')).to.equal('auto-generated');
      expect(address(parsed.from)).to.deep.equal(['noreply@forum.test']);
      expect(parsed.from!.value[0]!.name).to.equal('forum');
      expect(address(parsed.to)).to.deep.equal(['alice@example.com']);
      expect(parsed.subject).to.equal('Confirm your e-mail address at forum.test');
      expect(
        String(parsed.headers.get('content-type') && (parsed.headers.get('content-type') as { value: string }).value),
      ).to.equal('multipart/alternative');
      expect(parsed.text).to.contain('Hi alice,').and.contain('signed up at forum.test as alice');
      expect(parsed.text).to.contain('The link works for 24 hours');
      expect(parsed.html).to.contain('<html lang="en">').and.contain('Confirm my address');
      expect(parsed.html).to.not.match(/<img|<script|https?:\/\/(?!forum\.test)/);
      // Inline styles only, each attribute whole (no double quote inside one).
      expect(parsed.html).to.match(/<body style="[^"<>]*sans-serif">/);

      const token = linkToken(mail!, '/account/verify');
      expect(service<MailTokenKeys>(MailTokenKeys).digest(token)).to.equal(await tokenDigest(tokenId));
      await until(async () => (await mailJobs()).length === 0);
    });

    it('writes in Simplified Chinese to an account that reads it, UTF-8 throughout', async () => {
      await testEnv().sql("update users set locale = 'zh-CN', name = '爱丽丝 <b>' where id = $1", [alice.id]);
      worker = await startWorker(deliverThrough(new SmtpMailer(smtpUrl(sink.port), FROM, service(Clock))));
      const tokenId = await issueToken(alice, 'reset', { expiresInMs: HOUR });

      const [mail] = await sink.waitFor(1);
      const { parsed } = mail!;
      expect(parsed.subject).to.equal('重置你在 forum.test 的密码');
      expect(parsed.text).to.contain('爱丽丝 <b>，你好：').and.contain('链接只能使用一次，在 1 小时内有效');
      expect(parsed.html).to.contain('<html lang="zh-CN">').and.contain('设置新密码');
      // The name is text in the HTML part, never markup.
      expect(parsed.html).to.contain('爱丽丝 &lt;b&gt;，你好：').and.not.contain('爱丽丝 <b>');
      const token = linkToken(mail!, '/account/password/reset');
      expect(service<MailTokenKeys>(MailTokenKeys).digest(token)).to.equal(await tokenDigest(tokenId));
    });

    it('asks an account without a password to set one, not to reset it, in its language (contract §25)', async () => {
      await testEnv().sql('update users set password_hash = null where id = $1', [alice.id]);
      worker = await startWorker(deliverThrough(new SmtpMailer(smtpUrl(sink.port), FROM, service(Clock))));
      const tokenId = await issueToken(alice, 'reset', { expiresInMs: HOUR });
      const [mail] = await sink.waitFor(1);
      expect(mail!.parsed.subject).to.equal('Set a password at forum.test');
      expect(mail!.parsed.text).to.contain('set a password for alice at forum.test, which has none so far');
      expect(mail!.parsed.text).to.contain('nothing changes, and you sign in as before').and.not.contain('stays as it is');
      expect(mail!.parsed.html).to.contain('Choose a password');
      expect(service<MailTokenKeys>(MailTokenKeys).digest(linkToken(mail!, '/account/password/reset'))).to.equal(
        await tokenDigest(tokenId),
      );

      await testEnv().sql("update users set locale = 'zh-CN' where id = $1", [alice.id]);
      await issueToken(alice, 'reset', { expiresInMs: HOUR });
      const [second] = (await sink.waitFor(2)).slice(1);
      expect(second!.parsed.subject).to.equal('设置你在 forum.test 的密码');
      expect(second!.parsed.text).to.contain('这个账号目前没有密码');
    });

    it('sends each notice to its address: a new address, a repeated sign-up, a changed password or address, an approval', async () => {
      await testEnv().sql("update users set state = 'active' where id = $1", [alice.id]);
      worker = await startWorker(deliverThrough(new SmtpMailer(smtpUrl(sink.port), FROM, service(Clock))));
      const tokenId = await issueToken(alice, 'email_change', { email: 'alice@new.example' });
      await recordInUnitOfWork({ type: 'account.sign_up_repeated', userId: alice.id });
      await recordInUnitOfWork({ type: 'account.password_changed', userId: alice.id });
      await recordInUnitOfWork({ type: 'account.email_changed', userId: alice.id, previousEmail: 'alice@old.example' });
      await recordInUnitOfWork({ type: 'account.approved', userId: alice.id });

      const mails = await sink.waitFor(5);
      const bySubject = (start: string) => mails.find((m) => m.parsed.subject!.startsWith(start))!;

      const change = bySubject('Confirm your new e-mail address');
      expect(change.to).to.deep.equal(['alice@new.example']);
      expect(service<MailTokenKeys>(MailTokenKeys).digest(linkToken(change, '/account/verify'))).to.equal(
        await tokenDigest(tokenId),
      );
      const repeated = bySubject('Someone tried to sign up at forum.test with your address');
      expect(repeated.to).to.deep.equal(['alice@example.com']);
      expect(repeated.parsed.text).to.contain(`${PUBLIC_URL}/account/password/forgot`);
      expect(bySubject('Your password at forum.test was changed').to).to.deep.equal(['alice@example.com']);
      expect(bySubject('The e-mail address of your account at forum.test was changed').to).to.deep.equal(['alice@old.example']);
      const approved = bySubject('Your account at forum.test is ready');
      expect(approved.parsed.text).to.contain('You can sign in now').and.contain(PUBLIC_URL);
      for (const mail of mails) {
        expect(mail.parsed.headers.get('auto-submitted')).to.equal('auto-generated');
        expect(mail.parsed.text).to.be.a('string').and.not.equal('');
        expect(mail.parsed.html).to.be.a('string').and.contain('</html>');
      }
    });

    it('sends nothing for a link spent or expired meanwhile, or an account verified meanwhile', async () => {
      const deliver = deliverThrough(new SmtpMailer(smtpUrl(sink.port), FROM, service(Clock)));
      const spent = await issueToken(alice, 'reset', { expiresInMs: HOUR });
      await testEnv().sql('update account_tokens set used_at = now() where id = $1', [spent]);
      const expired = await issueToken(alice, 'reset', { expiresInMs: 1 });
      const verify = await issueToken(alice, 'verify');
      await testEnv().sql("update users set state = 'active' where id = $1", [alice.id]);
      const jobs: MailJob[] = [
        { kind: 'reset', userId: alice.id, tokenId: spent },
        { kind: 'reset', userId: alice.id, tokenId: expired },
        { kind: 'verify', userId: alice.id, tokenId: verify },
        // A token of another purpose, or of another account, is not sent either.
        { kind: 'email_change', userId: alice.id, tokenId: verify },
        { kind: 'approved', userId: 987_654 },
      ];
      await sleep(5);
      for (const job of jobs) expect(await testEnv().scope(() => deliver.execute(job)), job.kind).to.equal('dropped');
      await sleep(200);
      expect(sink.received).to.have.length(0);
    });

    it('upgrades with STARTTLS when the server offers it', async () => {
      const tls = await MailSink.start({ starttls: true });
      try {
        // The sink's certificate is self-signed: an operator's relay like it is trusted through the URL's query.
        const mailer = new SmtpMailer(smtpUrl(tls.port, '?tls.rejectUnauthorized=false'), FROM, service(Clock));
        await deliverThrough(mailer).execute({ kind: 'approved', userId: alice.id });
        const [mail] = await tls.waitFor(1);
        expect(mail!.secure).to.equal(true);
        expect(mail!.user).to.equal(SINK_USER);
      } finally {
        await tls.stop();
      }
    });
  });

  it('a mail queued while the server is down arrives once it is back, exactly once', async function () {
    this.timeout(60_000);
    const port = await freePort();
    const worker = await startWorker(deliverThrough(new SmtpMailer(smtpUrl(port), FROM, service(Clock))));
    let sink: MailSink | null = null;
    try {
      const tokenId = await issueToken(alice, 'verify');
      // The first try fails (nothing listens) and is put back for later.
      await until(async () => {
        const [job] = await mailJobs();
        return job !== undefined && job.attempts >= 1 && job.last_error !== null;
      }, 15_000);
      const [failed] = await mailJobs();
      expect(failed!.last_error).to.match(/ECONNREFUSED|connect/i);
      expect(failed!.last_error).to.not.contain(SINK_PASSWORD).and.not.contain(encodeURIComponent(SINK_PASSWORD));

      sink = await MailSink.start({ port });
      const [mail] = await sink.waitFor(1, 30_000);
      expect(service<MailTokenKeys>(MailTokenKeys).digest(linkToken(mail!, '/account/verify'))).to.equal(
        await tokenDigest(tokenId),
      );
      await until(async () => (await mailJobs()).length === 0, 10_000);
      await sleep(1_500);
      expect(sink.received).to.have.length(1);
    } finally {
      await worker.stop();
      await sink?.stop();
    }
  });

  it('without SMTP_URL, writes each mail as an .eml file in the data folder, whole and for its owner only', async () => {
    const env = testEnv();
    await rm(env.config.mail.folder, { recursive: true, force: true });
    expect(service(Mailer)).to.be.instanceOf(EmlFolder);
    const worker = await startWorker(env.container.get(DeliverMail));
    let tokenId: string;
    try {
      tokenId = await issueToken(alice, 'verify');
      await until(async () => (await readdir(env.config.mail.folder).catch(() => [])).length === 1);
    } finally {
      await worker.stop();
    }
    const [name] = await readdir(env.config.mail.folder);
    expect(name).to.match(/^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/);
    const file = path.join(env.config.mail.folder, name!);
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    const raw = await readFile(file);
    expect(raw.toString('latin1')).to.contain('\r\n');
    const parsed = await simpleParser(raw);
    expect(parsed.messageId).to.match(/^<[0-9a-f-]{36}@forum\.test>$/);
    expect(parsed.date!.getTime()).to.be.closeTo(Date.now(), 60_000);
    expect(parsed.headers.get('auto-submitted')).to.equal('auto-generated');
    expect(address(parsed.from)).to.deep.equal(['noreply@forum.test']);
    expect(address(parsed.to)).to.deep.equal(['alice@example.com']);
    expect(parsed.subject).to.equal('Confirm your e-mail address at forum.test');
    const mail = { parsed } as ReceivedMail;
    expect(service<MailTokenKeys>(MailTokenKeys).digest(linkToken(mail, '/account/verify'))).to.equal(
      await tokenDigest(tokenId!),
    );
  });

  describe('in a server process', () => {
    it('sends account mail through SMTP_URL with its worker, logging neither links nor the password', async function () {
      this.timeout(60_000);
      const env = testEnv();
      const sink = await MailSink.start();
      // The server derives links under the key the test's rows are made with.
      const secretKey = env.config.secretKey!;
      const server = await startServerProcess({
        DATABASE_URL: env.config.databaseUrl!,
        PUBLIC_URL,
        SMTP_URL: smtpUrl(sink.port),
        SECRET_KEY: secretKey,
        WEBHOOKS_CONCURRENCY: '0',
      });
      try {
        const tokenId = await issueToken(alice, 'verify');
        const [mail] = await sink.waitFor(1, 20_000);
        const token = linkToken(mail!, '/account/verify');
        expect(service<MailTokenKeys>(MailTokenKeys).digest(token)).to.equal(await tokenDigest(tokenId));
        expect(server.output()).to.not.contain(token).and.not.contain(encodeURIComponent(SINK_PASSWORD));
        expect(server.output()).to.not.contain('SMTP_URL is not set');
      } finally {
        await server.terminate();
        await sink.stop();
      }
    });

    it('in production without SMTP_URL or SECRET_KEY warns of each at start, and signs links with the data folder’s key', async function () {
      this.timeout(60_000);
      const env = testEnv();
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-mail-production-'));
      const server = await startServerProcess({
        NODE_ENV: 'production',
        DATABASE_URL: env.config.databaseUrl!,
        FORUM_DATA_DIR: dataDir,
        SECRET_KEY: undefined,
        SMTP_URL: undefined,
        WEBHOOKS_CONCURRENCY: '0',
      });
      try {
        expect(server.output()).to.contain('SMTP_URL is not set: mail is written as .eml files');
        expect((await fetch(`${server.url}/readyz`)).status).to.equal(200);
        expect(server.output()).to.contain('SECRET_KEY is not set: mail links are signed with a key kept in the data folder');
        await issueToken(alice, 'verify');
        await until(async () => (await readdir(path.join(dataDir, 'mail')).catch(() => [])).length > 0, 15_000);
        expect(server.output()).not.to.contain('a mail could not be sent');
        expect(await readdir(dataDir)).to.include('secret_key');
      } finally {
        await server.terminate();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  });
});
