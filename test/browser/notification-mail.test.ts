import { expect } from 'chai';
import { DeliverMail, MailFacts } from '../../src/application/mail/deliver-mail.js';
import { MailComposer } from '../../src/application/mail/mail-composer.js';
import type { Mailer, OutgoingMail } from '../../src/application/mail/mailer.js';
import { Clock, MailTokenKeys } from '../../src/application/ports.js';
import { makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { browserSuite, DESKTOP } from '../support/browser-session.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';

/**
 * A notification mail as a person sees it: its HTML part, as the sender composed it from real replies (code, a
 * quote, a list, a table, a mention, Chinese), shown in Debian's Chromium with JavaScript off, as a mail client's
 * view would, at phone (390) and desktop (1280) width, into /tmp/mail-notification-*.png for a person to look at.
 */
const REPLY = [
  'Thanks @alice! Two things:',
  '',
  '1. run `npm test` first',
  '2. then the bench:',
  '',
  '```sh',
  'BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- --sizes 10000 --only replies --duration 10',
  '```',
  '',
  '> The bench compares with the reference, never with a timed test.',
  '',
  '| scenario | req/s |',
  '| --- | ---: |',
  '| replies | 1,205 |',
].join('\n');

/** Keeps what it is given, to look at. */
class KeptMail implements Mailer {
  readonly sent: OutgoingMail[] = [];
  async send(mail: OutgoingMail): Promise<void> {
    this.sent.push(mail);
  }
}

describe('a notification mail in a browser (contract §17)', function () {
  this.timeout(60_000);
  const suite = browserSuite();

  /** A mail client's view at phone width: JavaScript off. */
  const phone = () => suite.newContext({ javaScriptEnabled: false });

  async function composed(locale: 'en' | 'zh-CN'): Promise<OutgoingMail> {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const carol = await makeUser('carol');
    await env.sql('update users set locale = $2 where id = $1', [alice.id, locale]);
    const topicId = await makeTopic(
      alice,
      await makeNode('Mail'),
      locale === 'en' ? 'How do I measure a change?' : '怎样衡量一次改动？',
    );
    await makeReply(bob, topicId, REPLY);
    await makeReply(carol, topicId, locale === 'en' ? 'Same here — the bench is the way.' : '同意，用 bench 来衡量。');
    const kept = new KeptMail();
    const container = env.container;
    const deliver = new DeliverMail(
      container.get(MailFacts),
      container.get(MailTokenKeys),
      kept,
      container.get(Clock),
      container.get(MailComposer),
      {
        publicUrl: PUBLIC_URL,
        topicUrl: `${PUBLIC_URL}/topics/{id}`,
        replyAddress: 'reply+%{key}@forum.test',
        from: 'forum <noreply@forum.test>',
      },
    );
    expect(await env.scope(() => deliver.execute({ kind: 'notifications', userId: alice.id, topicId }))).to.equal('sent');
    return kept.sent[0]!;
  }

  for (const locale of ['en', 'zh-CN'] as const) {
    it(`reads well at phone and desktop width, nothing wider than the screen (${locale})`, async () => {
      const mail = await composed(locale);
      const page = await (await phone()).newPage();
      await page.setContent(mail.html);
      await page.screenshot({ path: `/tmp/mail-notification-${locale}-phone.png`, fullPage: true });
      // At phone width nothing pushes the page sideways: the code block wraps or scrolls inside its card.
      const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).to.be.at.most(0);
      // The post's styles came inlined: the code block is set apart as on the forum.
      const style = (selector: string, property: string) =>
        page.evaluate<string>(`getComputedStyle(document.querySelector('${selector}')).${property}`);
      const codeBackground = await style('pre', 'backgroundColor');
      expect(codeBackground).to.equal('rgb(246, 248, 250)');
      const quoteBorder = await style('blockquote', 'borderLeftWidth');
      expect(quoteBorder).to.equal('3px');
      await page.setViewportSize(DESKTOP);
      await page.screenshot({ path: `/tmp/mail-notification-${locale}-desktop.png`, fullPage: true });
    });
  }

  it('unsubscribes from the link in the mail: a page that asks, a button, a page that says so (phone, JavaScript off)', async () => {
    const mail = await composed('en');
    const url = suite.server.url;
    const page = await (await phone()).newPage();
    // The Unsubscribe link of the mail's footer, as a person clicks it (PUBLIC_URL is this test server).
    const link = /href="([^"]*\/account\/unsubscribe\?key=[^"]+)"/.exec(mail.html)![1]!.replace(PUBLIC_URL, url);
    expect(mail.list!.unsubscribeUrl.replace(PUBLIC_URL, url)).to.equal(link);
    await page.goto(link);
    await page.screenshot({ path: '/tmp/mail-unsubscribe-ask.png', fullPage: true });
    expect(await page.textContent('h1')).to.equal('Unsubscribe');
    await page.click('button[type=submit]');
    await page.waitForLoadState();
    await page.screenshot({ path: '/tmp/mail-unsubscribe-done.png', fullPage: true });
    expect(await page.textContent('[role=status]')).to.equal('You will get no more mail about replies and mentions.');
    const [alice] = await testEnv().sql<{ email_notifications: string }>(
      "select email_notifications from users where login = 'alice'",
    );
    expect(alice!.email_notifications).to.equal('none');
  });
});
