import { expect } from 'chai';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { axe, describeViolations } from '../support/axe.js';
import { browserSuite, type ContextOptions, tabTo } from '../support/browser-session.js';
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
const SHOTS = '/tmp/taking-part-shots';
const PASSWORD = 'correct horse battery';

describe('Taking part, in a browser (contract §21b)', function () {
  this.timeout(180_000);
  const suite = browserSuite({ shots: SHOTS });
  let topic: number;

  beforeEach(async () => {
    const made = await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const [row] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
    topic = await makeTopic({ id: row!.id, login: 'carol', role: 'member' }, await makeNode('General'), 'Carol asks');
  });

  /** A phone's browser signed in as carol through the sign-in page. */
  const signedIn = (options: ContextOptions = {}): Promise<Page> => suite.signedInPage('carol', PASSWORD, options);

  it('replies with scripts off: the form posts, the page comes back at the new reply', async () => {
    const page = await signedIn({ javaScriptEnabled: false });
    await page.goto(`${suite.server.url}/topics/${topic}`);
    await page.fill('#reply-body', 'Written with **scripts off**');
    await Promise.all([page.waitForURL(new RegExp(`/topics/${topic}#reply1$`)), page.click('#reply-form button:not([name])')]);
    expect(await page.textContent('#reply1')).to.include('Written with scripts off');
    await page.screenshot({ path: `${SHOTS}/replied-390-en.png`, fullPage: true });
  });

  it('starts a topic with a preview first, by keyboard alone', async () => {
    const page = await signedIn();
    await page.goto(`${suite.server.url}/topics/new`);
    await page.focus('#topic-node');
    await page.keyboard.press('ArrowDown'); // the first node
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed, not clicked');
    await page.keyboard.press('Tab');
    await page.keyboard.type('A body with `code`');
    await tabTo(page, '.topic-form button[name=preview]'); // past the hint and the image field, onto Preview
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    expect(await page.innerHTML('.preview')).to.include('<code>code</code>');
    await page.screenshot({ path: `${SHOTS}/new-topic-preview-390-en.png`, fullPage: true });
    await page.focus('.topic-form button:not([name])');
    await Promise.all([page.waitForURL(/\/topics\/\d+$/), page.keyboard.press('Enter')]);
    expect(await page.textContent('h1')).to.equal('Typed, not clicked');
  });

  it('puts an image into a reply: posted with the form (scripts off), or uploaded at once where the cursor was (on)', async () => {
    const picture = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    const off = await signedIn({ javaScriptEnabled: false });
    await off.goto(`${suite.server.url}/topics/${topic}`);
    await off.fill('#reply-body', 'Scripts off, a picture:');
    await off.setInputFiles('#reply-body-image', { name: 'green field.png', mimeType: 'image/png', buffer: picture });
    await Promise.all([off.waitForURL(new RegExp(`/topics/${topic}#reply1$`)), off.click('#reply-form button:not([name])')]);
    const posted = off.locator('#reply1 img[alt="green field"]');
    expect(await posted.count()).to.equal(1);
    // Served where PUBLIC_URL says (a name this browser cannot reach in the tests): asked for here by its path.
    const served = await fetch(`${suite.server.url}${new URL((await posted.getAttribute('src'))!).pathname}`);
    expect(served.headers.get('content-type')).to.equal('image/png');

    const on = await signedIn();
    await on.goto(`${suite.server.url}/topics/${topic}`);
    await on.fill('#reply-body', 'Before\nAfter');
    // The cursor after "Before": the image goes there, on a line of its own.
    await on.focus('#reply-body');
    await on.evaluate(() => (document.querySelector('#reply-body') as HTMLTextAreaElement).setSelectionRange(6, 6));
    await on.setInputFiles('#reply-body-image', { name: 'sky.png', mimeType: 'image/png', buffer: picture });
    await on.waitForFunction(() => (document.querySelector('#reply-body') as HTMLTextAreaElement).value.includes('![sky]'));
    const text = await on.inputValue('#reply-body');
    expect(text).to.match(/^Before\n!\[sky\]\(http[^)]+\/uploads\/photos\/[^)]+\.png\)\n\nAfter$/);
    expect(await on.inputValue('#reply-body-image'), 'emptied: the form does not send it again').to.equal('');
    expect(await on.textContent('#reply-body-image-hint')).to.equal('The image is in the text, where the cursor was.');
    await on.screenshot({ path: `${SHOTS}/image-inserted-390-en.png`, fullPage: true });
    await Promise.all([on.waitForURL(new RegExp(`/topics/${topic}#reply2$`)), on.click('#reply-form button:not([name])')]);
    expect(await on.locator('#reply2 img[alt="sky"]').count()).to.equal(1);

    // Not an image: the hint says why, in the page's words, and the text is left as it was.
    await on.fill('#reply-body', 'kept');
    await on.setInputFiles('#reply-body-image', { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('no') });
    await on.waitForFunction(() => /could not be uploaded/.test(document.querySelector('#reply-body-image-hint')!.textContent!));
    expect(await on.textContent('#reply-body-image-hint')).to.include('file must be a PNG, JPEG, GIF or WebP image');
    expect(await on.inputValue('#reply-body')).to.equal('kept');
  });

  it('moves the unread count live when someone replies, and leads from /notifications to the topic', async () => {
    const page = await signedIn();
    await page.goto(`${suite.server.url}/`);
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
      // Read, then two replies more: the list says “2 new”, the topic has its line where they begin (contract §22).
      await page.goto(`${suite.server.url}/topics/${topic}`);
      for (const body of ['one more', 'and another']) {
        await api().post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body }).expect(200);
      }
      const found: string[] = [];
      for (const [name, path] of [
        ['home', '/'],
        ['topic', `/topics/${topic}`],
        ['new-topic', '/topics/new'],
        ['notifications', '/notifications'],
        ['profile', '/dave'],
      ] as const) {
        await page.goto(`${suite.server.url}${path}?lang=${lang}`);
        if (name === 'home') expect(await page.locator('a.new-count').count(), 'the “2 new” link').to.equal(1);
        if (name === 'topic') expect(await page.locator('h3.new-replies').count(), 'the new-replies line').to.equal(1);
        // The read state's marks in both themes (the same page, not loaded again: loading it read the replies).
        for (const scheme of name === 'home' || name === 'topic' ? (['light', 'dark'] as const) : (['light'] as const)) {
          await page.emulateMedia({ colorScheme: scheme });
          const suffix = scheme === 'dark' ? '-dark' : '';
          await page.screenshot({ path: `${SHOTS}/${name}-390-${lang}${suffix}.png`, fullPage: true });
          const violations = await axe(page);
          if (violations.length > 0) found.push(describeViolations(`${path} (${scheme})`, violations));
        }
        await page.emulateMedia({ colorScheme: 'light' });
      }
      expect(found.join('\n')).to.equal('');
    });
  }
});
