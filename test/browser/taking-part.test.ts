import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axe, describeViolations } from '../support/axe.js';
import { launchChromium } from '../support/chromium.js';
import { listen, type RunningServer } from '../../src/server/server.js';
import { api, makeNode, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/**
 * Taking part in a browser (contract §21b), as a person does it in Debian's Chromium at phone width: signed in
 * through the sign-in page, a reply written with scripts off (a form post and a redirect), a topic started with a
 * preview, the unread count moving live (scripts on) when another member replies, `/notifications` opened and its
 * link followed. axe-core finds nothing serious or critical on the signed-in pages, in both languages; screenshots in
 * /tmp/taking-part-shots for a person to look at.
 */
const PHONE = { width: 390, height: 844 };
const SHOTS = '/tmp/taking-part-shots';
const PASSWORD = 'correct horse battery';

describe('Taking part, in a browser (contract §21b)', function () {
  this.timeout(180_000);
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let topic: number;

  before(async () => {
    server = await listen(testEnv().app, 0, '127.0.0.1');
    browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
  });

  beforeEach(async () => {
    const made = await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const [row] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
    topic = await makeTopic({ id: row!.id, login: 'carol', role: 'member' }, await makeNode('General'), 'Carol asks');
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A phone's browser signed in as carol through the sign-in page. */
  async function signedIn(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: PHONE, ...options });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/account/sign-in`);
    await page.fill('#login', 'carol');
    await page.fill('input[type=password]', PASSWORD);
    await Promise.all([page.waitForURL(/\/account\/settings/), page.click('form button[type=submit]')]);
    return page;
  }

  it('replies with scripts off: the form posts, the page comes back at the new reply', async () => {
    const page = await signedIn({ javaScriptEnabled: false });
    await page.goto(`${server.url}/topics/${topic}`);
    await page.fill('#reply-body', 'Written with **scripts off**');
    await Promise.all([page.waitForURL(new RegExp(`/topics/${topic}#reply1$`)), page.click('#reply-form button:not([name])')]);
    expect(await page.textContent('#reply1')).to.include('Written with scripts off');
    await page.screenshot({ path: `${SHOTS}/replied-390-en.png`, fullPage: true });
  });

  it('starts a topic with a preview first, by keyboard alone', async () => {
    const page = await signedIn();
    await page.goto(`${server.url}/topics/new`);
    await page.focus('#topic-node');
    await page.keyboard.press('ArrowDown'); // the first node
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed, not clicked');
    await page.keyboard.press('Tab');
    await page.keyboard.type('A body with `code`');
    await page.keyboard.press('Tab'); // past the hint, onto Preview
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    expect(await page.innerHTML('.preview')).to.include('<code>code</code>');
    await page.screenshot({ path: `${SHOTS}/new-topic-preview-390-en.png`, fullPage: true });
    await page.focus('.topic-form button:not([name])');
    await Promise.all([page.waitForURL(/\/topics\/\d+$/), page.keyboard.press('Enter')]);
    expect(await page.textContent('h1')).to.equal('Typed, not clicked');
  });

  it('moves the unread count live when someone replies, and leads from /notifications to the topic', async () => {
    const page = await signedIn();
    await page.goto(`${server.url}/`);
    expect(await page.locator('a[href="/notifications"] .count').count()).to.equal(0);
    const dave = await makeUser('dave');
    await api().post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'an answer, @carol' }).expect(200);
    await page.waitForSelector('a[href="/notifications"] .count', { timeout: 10_000 });
    expect(await page.textContent('a[href="/notifications"] .count')).to.match(/^[12]$/);
    expect(await page.getAttribute('a[href="/notifications"]', 'aria-label')).to.match(/^Notifications, [12] unread$/);
    await page.screenshot({ path: `${SHOTS}/live-count-390-en.png` });
    await page.click('a[href="/notifications"]');
    await page.screenshot({ path: `${SHOTS}/notifications-390-en.png`, fullPage: true });
    await Promise.all([page.waitForURL(new RegExp(`/topics/${topic}$`)), page.click(`.notification a[href="/topics/${topic}"]`)]);
    expect(await page.textContent('h1')).to.equal('Carol asks');
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`has nothing serious for axe on the signed-in pages, in ${lang}`, async () => {
      const dave = await makeUser('dave');
      await api().post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'hello @carol' }).expect(200);
      const page = await signedIn({ bypassCSP: true, locale: lang });
      const found: string[] = [];
      for (const [name, path] of [
        ['topic', `/topics/${topic}`],
        ['new-topic', '/topics/new'],
        ['notifications', '/notifications'],
        ['profile', '/dave'],
      ] as const) {
        await page.goto(`${server.url}${path}?lang=${lang}`);
        await page.screenshot({ path: `${SHOTS}/${name}-390-${lang}.png`, fullPage: true });
        const violations = await axe(page);
        if (violations.length > 0) found.push(describeViolations(path, violations));
      }
      expect(found.join('\n')).to.equal('');
    });
  }
});
