import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { browserSuite, DESKTOP, PHONE } from '../support/browser-session.js';
import { forumctl } from '../support/cli.js';

/**
 * Private messages in Debian's Chromium (contract §24, §21), as two people use them: carol, scripts off, writes to
 * dave from his profile; dave follows the header's link to his messages, sees it new, reads it and answers; carol
 * then sees his answer new. axe-core finds nothing serious or critical on the pages of messages, in both languages;
 * screenshots at phone and desktop width in /tmp/messages-shots for a person to look at.
 */
const SHOTS = '/tmp/messages-shots';
const PASSWORD = 'correct horse battery';

describe('Private messages, in a browser (contract §24)', function () {
  this.timeout(180_000);
  const suite = browserSuite({ shots: SHOTS });

  beforeEach(async () => {
    for (const login of ['carol', 'dave']) {
      const made = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD]);
      expect(made.code, made.stderr).to.equal(0);
    }
  });

  /** The page as it is now, at phone and desktop width (phone first: the pages' own width). */
  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: `${SHOTS}/${name}-390-en.png`, fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.screenshot({ path: `${SHOTS}/${name}-1280-en.png`, fullPage: true });
    await page.setViewportSize(PHONE);
  }

  it('sends a message from a profile (scripts off); the other finds it new, reads it and answers', async () => {
    const carol = await suite.signedInPage('carol', PASSWORD, { javaScriptEnabled: false });
    await carol.goto(`${suite.server.url}/dave`);
    await shoot(carol, 'profile');
    await Promise.all([carol.waitForURL(/\/messages\/new\?to=dave$/), carol.click('text=Send a message')]);
    expect(await carol.inputValue('#message-to')).to.equal('dave');
    await carol.fill('#message-title', 'Coffee on Friday?');
    await carol.fill('#message-body', 'Shall we meet at the **usual place**?');
    await shoot(carol, 'new-message');
    await Promise.all([carol.waitForURL(/\/messages\/\d+$/), carol.click('.topic-form button:not([name])')]);
    expect(await carol.textContent('h1')).to.equal('Coffee on Friday?');

    const dave = await suite.signedInPage('dave', PASSWORD);
    await dave.goto(`${suite.server.url}/`);
    await Promise.all([dave.waitForURL(/\/messages$/), dave.click('header a[href="/messages"]')]);
    expect(await dave.textContent('li.conversation .new-count')).to.equal('1 new');
    await shoot(dave, 'messages-unread');
    expect(await suite.axe(dave)).to.equal('');

    await Promise.all([dave.waitForURL(/\/messages\/\d+$/), dave.click('li.conversation a.title')]);
    expect(await dave.innerHTML('article .body')).to.include('<strong>usual place</strong>');
    await dave.fill('#reply-body', 'Yes, at *ten*.');
    await Promise.all([dave.waitForURL(/\/messages\/\d+#reply1$/), dave.click('#reply-form button:not([name])')]);
    expect(await dave.textContent('#reply1')).to.include('Yes, at ten.');
    await shoot(dave, 'conversation');
    expect(await suite.axe(dave)).to.equal('');

    await carol.goto(`${suite.server.url}/messages`);
    expect(await carol.textContent('li.conversation .new-count')).to.equal('1 new');
    expect(await carol.textContent('li.conversation .about')).to.match(/last message by dave/);
  });

  for (const lang of ['en', 'zh-CN'] as const) {
    it(`has nothing serious for axe on the pages of messages, in ${lang}`, async () => {
      const carol = await suite.signedInPage('carol', PASSWORD, { locale: lang });
      await carol.goto(`${suite.server.url}/messages/new?to=dave&lang=${lang}`);
      await carol.fill('#message-title', 'Coffee');
      await carol.fill('#message-body', 'Friday?');
      await Promise.all([carol.waitForURL(/\/messages\/\d+$/), carol.click('.topic-form button:not([name])')]);
      const found: string[] = [];
      for (const path of ['/messages', '/messages/new?to=dave', new URL(carol.url()).pathname, '/dave']) {
        await carol.goto(`${suite.server.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
        expect(await carol.getAttribute('html', 'lang')).to.equal(lang);
        const overflow = await carol.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) found.push(`${path}: ${overflow}px wider than the screen`);
        const said = await suite.axe(carol, path);
        if (said) found.push(said);
      }
      expect(found.join('\n')).to.equal('');
    });
  }
});
