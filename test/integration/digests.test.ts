import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { DeliverMail, MailFacts } from '../../src/application/mail/deliver-mail.js';
import { MailComposer } from '../../src/application/mail/mail-composer.js';
import { QueueDigests } from '../../src/application/mail/digests.js';
import type { MailJob } from '../../src/application/mail/mail-jobs.js';
import type { Mailer } from '../../src/application/mail/mailer.js';
import { Clock, MailTokenKeys } from '../../src/application/ports.js';
import { digestsTask } from '../../src/adapters/jobs/tasks/digests.js';
import { mailDeliveryTask } from '../../src/adapters/jobs/tasks/mail-delivery.js';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer.js';
import { DIGEST_TASK, MAIL_TASK } from '../../src/adapters/persistence/mail/mail-task.js';
import { api, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';
import { startJobs } from '../support/jobs.js';
import { MailSink, type ReceivedMail } from '../support/mail-sink.js';
import { until } from '../support/wait.js';

const FROM = 'forum <noreply@forum.test>';
/** A TOPIC_URL other than the default: links in a digest must follow it. */
const TOPIC_URL = 'https://web.forum.test/t/{id}';

function service<T>(id: symbol | (abstract new (...args: never[]) => T)): T {
  return testEnv().container.get<T>(id as never);
}

function deliverThrough(mailer: Mailer): DeliverMail {
  return new DeliverMail(service(MailFacts), service(MailTokenKeys), mailer, service(Clock), service(MailComposer), {
    publicUrl: PUBLIC_URL,
    topicUrl: TOPIC_URL,
    replyAddress: null,
    from: FROM,
  });
}

const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) => testEnv().sql<T>(query, params);

/** The user as if last here `hours` hours ago (the clock is moved in the database, never waited for). */
const away = (user: TestUser, hours: number) =>
  sql('update users set last_seen_at = now() - make_interval(hours => $2) where id = $1', [user.id, hours]);

const runSchedule = () => testEnv().scope(() => service<QueueDigests>(QueueDigests).execute());

type DigestJob = Extract<MailJob, { kind: 'digest' }>;

async function digestJobs(): Promise<DigestJob[]> {
  const rows = await sql<{ payload: DigestJob }>(
    `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
     where t.identifier = $1 and j.payload->>'kind' = 'digest' order by j.id`,
    [MAIL_TASK],
  );
  return rows.map((row) => row.payload);
}

const digestOf = async (user: TestUser) => (await digestJobs()).find((job) => job.userId === user.id);

async function clearJobs(): Promise<void> {
  await sql('delete from graphile_worker._private_jobs');
}

/** The topics of a digest's text part, by their titles in order. */
const titlesIn = (text: string) => [...text.matchAll(/^\d+\. (.+)$/gm)].map((match) => match[1]);

describe('digests (contract §17)', () => {
  let writer: TestUser;
  let general: number;

  beforeEach(async () => {
    await clearJobs();
    writer = await makeUser('writer');
    general = await makeNode('general');
  });

  describe('who is due', () => {
    /** A reader with this preference, away this long. */
    async function reader(login: string, digest: 'daily' | 'weekly' | 'none', hoursAway: number): Promise<TestUser> {
      const user = await makeUser(login);
      await sql('update users set email_digest = $2 where id = $1', [user.id, digest]);
      await away(user, hoursAway);
      return user;
    }

    it('queues one digest to each active reader away for their period, with the period’s start, and no more', async () => {
      await makeTopic(writer, general, 'Something new');
      const weekly = await reader('weekly', 'weekly', 8 * 24);
      const daily = await reader('daily', 'daily', 30);
      const weeklyBack = await reader('weeklyback', 'weekly', 3 * 24);
      const dailyBack = await reader('dailyback', 'daily', 2);
      const none = await reader('none', 'none', 90 * 24);
      const unverified = await reader('unverified', 'weekly', 90 * 24);
      const pending = await reader('pending', 'daily', 90 * 24);
      await sql("update users set state = 'unverified' where id = $1", [unverified.id]);
      await sql("update users set state = 'pending' where id = $1", [pending.id]);
      // Left: its address is a placeholder nobody receives.
      const left = await reader('left', 'weekly', 90 * 24);
      await sql("update users set email = 'deleted_1@deleted.invalid' where id = $1", [left.id]);

      expect(await runSchedule()).to.equal(2);
      const jobs = await digestJobs();
      expect(jobs.map((job) => job.userId).sort()).to.deep.equal([weekly.id, daily.id].sort());
      const weeklySince = new Date((await digestOf(weekly))!.since).getTime();
      const dailySince = new Date((await digestOf(daily))!.since).getTime();
      expect(weeklySince).to.be.closeTo(Date.now() - 7 * 86_400_000, 60_000);
      expect(dailySince).to.be.closeTo(Date.now() - 86_400_000, 60_000);
      for (const other of [weeklyBack, dailyBack, none, unverified, pending, left]) {
        expect(await digestOf(other), other.login).to.equal(undefined);
      }

      // Run again (the next hour's run, or forumctl): nobody twice.
      expect(await runSchedule()).to.equal(0);
      expect(await digestJobs()).to.have.length(2);
    });

    it('a daily reader is due again a day later, a weekly one a week later (less half an hour of slack)', async () => {
      await makeTopic(writer, general);
      const daily = await reader('daily', 'daily', 10 * 24);
      const weekly = await reader('weekly', 'weekly', 10 * 24);
      expect(await runSchedule()).to.equal(2);
      await clearJobs();

      const lastSent = (user: TestUser, hours: number) =>
        sql('update users set digest_sent_at = now() - make_interval(mins => $2) where id = $1', [user.id, hours * 60]);
      await lastSent(daily, 23);
      await lastSent(weekly, 6 * 24 + 23);
      expect(await runSchedule()).to.equal(0);

      await lastSent(daily, 23.75);
      expect(await runSchedule()).to.equal(1);
      expect((await digestJobs()).map((job) => job.userId)).to.deep.equal([daily.id]);

      await lastSent(weekly, 7 * 24);
      expect(await runSchedule()).to.equal(1);
      // A topic started since the last digest is what the next one lists: `since` is the last digest.
      const since = new Date((await digestOf(weekly))!.since).getTime();
      expect(since).to.be.closeTo(Date.now() - 7 * 86_400_000, 60_000);
    });

    it('marks nobody while no topic was started in the period, and queues as soon as one is', async () => {
      const old = await makeTopic(writer, general, 'Old news');
      await sql("update topics set created_at = now() - interval '10 days', last_active_at = now() where id = $1", [old]);
      const weekly = await reader('weekly', 'weekly', 30 * 24);
      expect(await runSchedule()).to.equal(0);
      const [row] = await sql<{ digest_sent_at: Date | null }>('select digest_sent_at from users where id = $1', [weekly.id]);
      expect(row!.digest_sent_at).to.equal(null);

      await makeTopic(writer, general, 'Fresh news');
      expect(await runSchedule()).to.equal(1);
    });

    it('queues in batches, each user once, and two runs at once split the users between them', async () => {
      await makeTopic(writer, general);
      const values = Array.from({ length: 1_203 }, (_, i) => `('reader${i}', 'reader${i}@example.com')`).join(', ');
      await sql(`insert into users (login, email) values ${values}`);
      await sql("update users set last_seen_at = now() - interval '8 days' where login like 'reader%'");
      const runs = await Promise.all([runSchedule(), runSchedule()]);
      expect(runs[0]! + runs[1]!).to.equal(1_203);
      const jobs = await digestJobs();
      expect(jobs).to.have.length(1_203);
      expect(new Set(jobs.map((job) => job.userId)).size).to.equal(1_203);
      expect(await runSchedule()).to.equal(0);
    });

    it('forumctl mail digest runs the schedule once, now, and says how many were queued', async () => {
      await makeTopic(writer, general);
      await reader('weekly', 'weekly', 8 * 24);
      const first = await forumctl(['mail', 'digest']);
      expect(first.code, first.stderr).to.equal(0);
      expect(first.stdout.trim()).to.equal('1 digest queued');
      const second = await forumctl(['mail', 'digest', '--json']);
      expect(second.json()).to.deep.equal({ queued: 0 });
      expect(await digestJobs()).to.have.length(1);
      // A member may not.
      const member = await forumctl(['mail', 'digest', '--as', 'weekly']);
      expect(member.code).to.equal(3);
    });
  });

  describe('what a digest says', () => {
    let reader: TestUser;
    let sink: MailSink;

    beforeEach(async () => {
      reader = await makeUser('reader');
      await away(reader, 8 * 24);
      sink = await MailSink.start();
    });

    afterEach(async () => {
      await sink.stop();
    });

    const deliver = () => deliverThrough(new SmtpMailer(`smtp://127.0.0.1:${sink.port}`, FROM, service(Clock)));

    /** The reader's digest, queued by the schedule and sent over SMTP; null when it was dropped. */
    async function digest(): Promise<ReceivedMail | null> {
      expect(await runSchedule()).to.equal(1);
      const job = await digestOf(reader);
      const outcome = await testEnv().scope(() => deliver().execute(job!));
      if (outcome === 'dropped') {
        await sleep(100);
        expect(sink.received).to.have.length(0);
        return null;
      }
      expect(outcome).to.equal('sent');
      return (await sink.waitFor(1))[0]!;
    }

    it('lists the most active new topics the reader sees, and none that they do not', async () => {
      const hidden = await makeNode('hidden', { hidden: true });
      const blockedNode = await makeNode('blocked');
      const blockedUser = await makeUser('pest');
      await sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [reader.id, blockedNode]);
      await sql('insert into user_blocks (user_id, blocked_user_id) values ($1, $2)', [reader.id, blockedUser.id]);

      const quiet = await makeTopic(writer, general, 'A quiet topic', 'Nobody answered yet.');
      const busy = await makeTopic(writer, general, 'A busy topic', 'Everybody has something to say about **this**.');
      const liked = await makeTopic(writer, general, 'A liked topic');
      await sql('update topics set replies_count = 5, likes_count = 1 where id = $1', [busy]);
      await sql('update topics set likes_count = 3 where id = $1', [liked]);

      await makeTopic(writer, hidden, 'In a hidden node');
      await makeTopic(writer, blockedNode, 'In a node the reader blocked');
      await makeTopic(blockedUser, general, 'By a user the reader blocked');
      const deleted = await makeTopic(writer, general, 'Deleted');
      await sql('update topics set deleted_at = now(), replies_count = 50 where id = $1', [deleted]);
      const banned = await makeTopic(writer, general, 'Banned');
      await sql("update topics set node_id = (select id from nodes where name = 'NoPoint') where id = $1", [banned]);
      const old = await makeTopic(writer, general, 'Started before the week');
      await sql("update topics set created_at = now() - interval '8 days', replies_count = 99 where id = $1", [old]);
      await makeTopic(reader, general, 'The reader’s own');
      // A conversation the reader takes part in, new and busy (contract §24): it is no topic of the forum.
      const conversation = await api()
        .post('/api/v3/messages')
        .set(writer.auth)
        .send({ to: [reader.login], title: 'A private conversation', body: 'just us' })
        .expect(200);
      await sql('update topics set replies_count = 80 where id = $1', [conversation.body.message.id]);

      const mail = (await digest())!;
      const { parsed } = mail;
      expect(mail.to).to.deep.equal(['reader@example.com']);
      expect(titlesIn(parsed.text!)).to.deep.equal(['A busy topic', 'A liked topic', 'A quiet topic']);
      expect(parsed.subject).to.equal('This week at forum.test: A busy topic and 2 more topics');
      // Each with its node, author, replies and likes, the start of its text, and its link by TOPIC_URL.
      expect(parsed.text).to.contain('general · writer · 5 replies · 1 like');
      expect(parsed.text).to.contain('Everybody has something to say about this.');
      expect(parsed.text).to.contain(`https://web.forum.test/t/${busy}`).and.contain(`https://web.forum.test/t/${quiet}`);
      expect(parsed.html).to.contain(`<a href="https://web.forum.test/t/${liked}"`);
      expect(parsed.html).to.contain('A busy topic').and.contain('5 replies');
      const unseen = [
        'In a hidden node',
        'In a node the reader blocked',
        'By a user the reader blocked',
        'Deleted',
        'Banned',
        'Started before the week',
        'The reader’s own',
        'A private conversation',
      ];
      for (const title of unseen) {
        expect(parsed.text, title).to.not.contain(title);
        expect(parsed.html, title).to.not.contain(title);
      }
    });

    it('lists at most ten', async () => {
      for (let i = 1; i <= 12; i++) await makeTopic(writer, general, `Topic ${i}`);
      expect(titlesIn((await digest())!.parsed.text!)).to.have.length(10);
    });

    it('sends nothing when nothing new is left to the reader: the job is dropped', async () => {
      await makeTopic(writer, general, 'Only in general');
      await sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [reader.id, general]);
      expect(await digest()).to.equal(null);
    });

    it('sends nothing to a reader who left digests, or became inactive, after it was queued', async () => {
      await makeTopic(writer, general);
      expect(await runSchedule()).to.equal(1);
      const job = (await digestOf(reader))!;
      await sql("update users set email_digest = 'none' where id = $1", [reader.id]);
      expect(await testEnv().scope(() => deliver().execute(job))).to.equal('dropped');
      await sql("update users set email_digest = 'daily', state = 'pending' where id = $1", [reader.id]);
      expect(await testEnv().scope(() => deliver().execute(job))).to.equal('dropped');
    });

    it('carries List-Id, List-Unsubscribe (link and mailto, the user’s key) and one-click, in both parts', async () => {
      await makeTopic(writer, general, 'Headers');
      const { parsed, raw } = (await digest())!;
      const headers = raw
        .toString('utf8')
        .split('\r\n\r\n')[0]!
        .replace(/\r\n\s+/g, ' ');
      expect(headers).to.match(/^List-Id: "forum\.test digest" <digest\.forum\.test>$/im);
      // One List-Unsubscribe header, with both ways out.
      expect(headers.match(/^List-Unsubscribe:/gim)).to.have.length(1);
      const unsubscribe = /^List-Unsubscribe: (.+)$/im.exec(headers)![1]!;
      const match =
        /^<http:\/\/forum\.test\/account\/unsubscribe\?key=([a-z0-9-]+)>, <mailto:noreply@forum\.test\?subject=unsubscribe%20([a-z0-9-]+)>$/.exec(
          unsubscribe,
        );
      expect(match, unsubscribe).to.not.equal(null);
      expect(match![1]).to.equal(match![2]);
      expect(service<MailTokenKeys>(MailTokenKeys).readUnsubscribeKey(match![1]!)).to.deep.equal({
        userId: reader.id,
        list: 'digest',
      });
      expect(headers).to.match(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
      expect(parsed.headers.get('auto-submitted')).to.equal('auto-generated');
      expect(String((parsed.headers.get('content-type') as { value: string }).value)).to.equal('multipart/alternative');
      // The unsubscribe link is in the mail itself too, and the HTML is self-contained.
      expect(parsed.text).to.contain(`http://forum.test/account/unsubscribe?key=${match![1]}`);
      expect(parsed.html).to.contain(`href="http://forum.test/account/unsubscribe?key=${match![1]}"`);
      expect(parsed.html).to.not.match(/<img|<script|<link|<style/);
    });

    it('writes in the reader’s language, escaping what people wrote', async () => {
      await sql("update users set locale = 'zh-CN', email_digest = 'daily' where id = $1", [reader.id]);
      await away(reader, 48);
      await makeTopic(writer, general, '数据库 <b>问题</b>', '这是一个关于数据库的问题。');
      const { parsed } = (await digest())!;
      expect(parsed.subject).to.equal('forum.test 今日热门：数据库 <b>问题</b>');
      expect(parsed.text).to.contain('reader，你好：').and.contain('general · writer · 0 条回复');
      expect(parsed.text).to.contain('这是一个关于数据库的问题。');
      expect(parsed.html).to.contain('<html lang="zh-CN">').and.contain('数据库 &lt;b&gt;问题&lt;/b&gt;');
      expect(parsed.html).to.not.contain('<b>问题</b>');
      expect(parsed.html).to.contain('退订摘要邮件');
    });
  });

  describe('the schedule', () => {
    it('a mail worker registers the hourly cron, runs the digest task it queues, and sends the digests to the data folder', async function () {
      this.timeout(30_000);
      const env = testEnv();
      await rm(env.config.mail.folder, { recursive: true, force: true });
      await makeTopic(writer, general, 'For the folder');
      const reader = await makeUser('reader');
      await away(reader, 8 * 24);
      const worker = await startJobs([
        mailDeliveryTask(service(DeliverMail), { identifier: MAIL_TASK, concurrency: 2 }),
        digestsTask({ identifier: DIGEST_TASK, schedule: '0 * * * *', run: () => service<QueueDigests>(QueueDigests).execute() }),
      ]);
      try {
        // Registered with graphile-worker's cron, which adds the task's job at the top of each hour, once for all processes.
        await until(
          async () =>
            (await sql('select 1 from graphile_worker._private_known_crontabs where identifier = $1', [DIGEST_TASK])).length ===
            1,
        );
        // What the cron adds at the top of the hour, added now.
        await sql(`select graphile_worker.add_job($1, '{}'::json, job_key := $1)`, [DIGEST_TASK]);
        await until(async () => (await readdir(env.config.mail.folder).catch(() => [])).length === 1, 15_000);
      } finally {
        await worker.stop();
      }
      const [name] = await readdir(env.config.mail.folder);
      const raw = await readFile(path.join(env.config.mail.folder, name!));
      const parsed = await simpleParser(raw);
      expect(parsed.subject).to.equal('This week at forum.test: For the folder');
      expect(raw.toString('utf8')).to.match(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      expect(parsed.text).to.contain(`${PUBLIC_URL}/topics/`);
      expect(await runSchedule()).to.equal(0);
    });
  });
});
