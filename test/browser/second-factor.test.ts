import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { browserSuite, DESKTOP, PHONE, watch } from '../support/browser-session.js';
import { forumctl } from '../support/cli.js';
import { stepAt, totpCode } from '../support/totp.js';

/**
 * Two-factor sign-in in a real browser (Debian's Chromium, scripts off, a phone's screen): set it up from the
 * settings (the key read from the page's text, since a test cannot scan; the code computed by the tests' own RFC
 * 6238), sign out, and sign in with the password and then the code. Shot into /tmp/two-factor-*.png.
 */
const PASSWORD = 'correct horse battery';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/two-factor-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `/tmp/two-factor-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

describe('Two-factor sign-in, in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite();

  it('sets it up with the key on the page, then signs in with the password and the code', async () => {
    const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const context = await suite.newContext({ javaScriptEnabled: false, isMobile: true });
    const page = await context.newPage();
    const problems = watch(page);
    const signIn = async () => {
      await page.getByLabel('Login or e-mail').fill('alice');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    };

    await page.goto(`${suite.server.url}/account/settings`);
    await signIn();
    await page.getByRole('link', { name: 'Two-factor sign-in settings' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    expect(await page.getByRole('img', { name: 'QR code of your two-factor key' }).locator('svg').count()).to.equal(1);
    const secret = (await page.locator('#totp-secret').innerText()).trim();
    await shoot(page, 'qr');
    const step = stepAt(Date.now());
    await page.getByLabel('The code the app shows now').fill(totpCode(secret, step));
    await page.getByRole('button', { name: 'Turn on' }).click();
    expect(await page.locator('ol.recovery-codes li').count()).to.equal(10);
    await shoot(page, 'recovery-codes');

    await page.goto(`${suite.server.url}/account/settings`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${suite.server.url}/account/sign-in`);
    await signIn();
    expect(new URL(page.url()).pathname).to.equal('/account/sign-in/code');
    await shoot(page, 'code-step');
    await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, step + 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    expect(new URL(page.url()).pathname).to.equal('/account/settings');
    expect(await page.locator('#two-factor + p').innerText()).to.equal('Two-factor sign-in is on.');
    expect(problems).to.deep.equal([]);
    await context.close();
  });
});
