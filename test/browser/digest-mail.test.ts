import { expect } from 'chai';
import { DeliverMail } from '../../src/application/mail/deliver-mail.js';
import { QueueDigests } from '../../src/application/mail/digests.js';
import type { Mailer, OutgoingMail } from '../../src/application/mail/mailer.js';
import { MailFacts } from '../../src/application/mail/deliver-mail.js';
import { MailComposer } from '../../src/application/mail/mail-composer.js';
import { Clock, MailTokenKeys } from '../../src/application/ports.js';
import { MAIL_TASK } from '../../src/adapters/persistence/mail/mail-task.js';
import { browserSuite } from '../support/browser-session.js';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';

/**
 * A real digest's HTML part in Debian's Chromium, as a mail client shows it: at a desktop's width and a phone's,
 * nothing wider than the screen, nothing fetched, and a screenshot of each in test-output/ for a person to look at.
 */
describe('the digest mail in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite({ shots: 'test-output' });

  /** Topics as people write them: a long title, Chinese, a long word, markup in the text. */
  async function digestHtml(locale: 'en' | 'zh-CN'): Promise<string> {
    const env = testEnv();
    const writer = await makeUser(locale === 'en' ? 'writer' : 'writer2');
    await env.sql("update users set name = 'Mary Writer' where id = $1", [writer.id]);
    const reader = await makeUser(locale === 'en' ? 'reader' : 'reader2');
    await env.sql("update users set locale = $2, last_seen_at = now() - interval '8 days' where id = $1", [reader.id, locale]);
    const general = await makeNode(locale === 'en' ? 'general' : '数据库');
    const topics = [
      [
        'How do I keep a PostgreSQL connection pool healthy when the database restarts under load?',
        'We run four server processes behind a load balancer. When PostgreSQL restarts for a minor upgrade, every pool hands out dead connections for a minute. What do you do about it?',
      ],
      [
        '数据库连接池在重启后的问题',
        '这是一个关于数据库连接池的问题。我们在高负载下重启数据库以后，连接池里会留下断开的连接，请问大家是怎么处理的？',
      ],
      ['A link with no spaces', `See https://example.com/${'a-very-long-path-segment-'.repeat(6)}end for the whole story.`],
      ['<b>Markup</b> in a title', 'Text with <script>alert(1)</script> in it.'],
    ];
    for (const [i, [title, body]] of topics.entries()) {
      const id = await makeTopic(writer, general, title, body);
      await env.sql('update topics set replies_count = $2, likes_count = $3 where id = $1', [id, 10 - i * 3, i]);
    }
    await env.sql('delete from graphile_worker._private_jobs');
    await env.scope(() => env.container.get(QueueDigests).execute());
    const [job] = await env.sql<{ payload: { kind: 'digest'; userId: number; since: string } }>(
      `select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
       where t.identifier = $1 and (j.payload->>'userId')::int = $2`,
      [MAIL_TASK, reader.id],
    );
    const sent: OutgoingMail[] = [];
    const mailer: Mailer = { send: async (mail) => void sent.push(mail) };
    const deliver = new DeliverMail(
      env.container.get(MailFacts),
      env.container.get(MailTokenKeys),
      mailer,
      env.container.get(Clock),
      env.container.get(MailComposer),
      { publicUrl: PUBLIC_URL, topicUrl: `${PUBLIC_URL}/topics/{id}`, replyAddress: null, from: 'forum <noreply@forum.test>' },
    );
    expect(await env.scope(() => deliver.execute(job!.payload))).to.equal('sent');
    return sent[0]!.html;
  }

  for (const [locale, width, height] of [
    ['en', 1024, 1400],
    ['en', 375, 1800],
    ['zh-CN', 375, 1400],
  ] as const) {
    it(`shows the ${locale} digest whole at ${width} pixels wide, fetching nothing`, async () => {
      const html = await digestHtml(locale);
      const page = await (await suite.newContext({ viewport: { width, height }, javaScriptEnabled: false })).newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.setContent(html, { waitUntil: 'load' });

      // Nothing sticks out sideways: a mail client would show a scroll bar (or cut it off).
      // (A string: the test project compiles without the DOM's types.)
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow, 'pixels wider than the screen').to.be.at.most(0);
      const titles = await page.locator('a[href*="/topics/"]').allInnerTexts();
      expect(titles).to.have.length(4);
      expect(titles).to.include('<b>Markup</b> in a title');
      expect(requested.filter((url) => !url.startsWith('data:') && url !== 'about:blank')).to.deep.equal([]);

      await page.screenshot({ path: `test-output/digest-${locale}-${width}.png`, fullPage: true });
    });
  }
});
