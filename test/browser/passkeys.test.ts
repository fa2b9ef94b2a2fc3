import { expect } from 'chai';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { listen, type RunningServer } from '../../src/server/server.js';
import { browserSuite, DESKTOP, PHONE, watch } from '../support/browser-session.js';
import { forumctl } from '../support/cli.js';
import { configuredWith } from '../support/env.js';

/**
 * Passkeys in a real browser (Debian's Chromium, scripts on, a virtual authenticator through the DevTools protocol):
 * add one on the settings page, sign out, sign in with the password and then "Use a passkey", remove it. The
 * forum runs with PUBLIC_URL http://localhost:<port> (the relying party id `localhost`, a secure context), as the
 * browser reaches it. Shot into /tmp/passkeys-*.png.
 */
const PASSWORD = 'correct horse battery';

/** A port nothing listens on now, so that PUBLIC_URL can name it before the forum listens there. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/passkeys-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `/tmp/passkeys-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

describe('Passkeys, in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite();
  let server: RunningServer | undefined;
  after(async () => server?.stop());

  it('adds a passkey in the settings, signs in with the password and the passkey, and removes it', async () => {
    const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const port = await freePort();
    const base = `http://localhost:${port}`;
    server = await listen(configuredWith({ publicUrl: base }).app, port, '127.0.0.1');

    const context = await suite.newContext({ isMobile: true });
    const page = await context.newPage();
    const problems = watch(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });

    await suite.signIn(page, 'alice', PASSWORD, { at: base });
    await page.goto(`${base}/account/settings/two-factor`);
    expect(await page.getByText('Adding or using a passkey needs JavaScript').isVisible()).to.equal(false);
    await page.getByLabel('Name of the new passkey').fill('Test phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('The passkey is added.').waitFor();
    expect(await page.locator('ul.passkeys li').innerText()).to.match(/^Test phone: added .*, never used$/);
    // The first second factor brings the recovery codes, shown this once.
    expect(await page.locator('ol.recovery-codes li').count()).to.equal(10);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).to.have.length(1);
    await shoot(page, 'settings');

    await page.goto(`${base}/account/settings`);
    expect(await page.locator('#two-factor + p').innerText()).to.equal('Two-factor sign-in is on.');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${base}/account/sign-in`);
    await page.getByLabel('Login or e-mail').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(new URL(page.url()).pathname).to.equal('/account/sign-in/code');
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await shoot(page, 'code-step');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/account/settings');

    await page.goto(`${base}/account/settings/two-factor`);
    expect(await page.locator('ul.passkeys li').innerText()).to.match(/^Test phone: added .*, last used /);
    await page.locator('#remove-passkey-password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('The passkey is removed.').waitFor();
    expect(await page.getByText('You have no passkeys.').isVisible()).to.equal(true);
    expect(await page.locator('p.muted').first().innerText()).to.equal('Two-factor sign-in is off.');
    expect(problems).to.deep.equal([]);
  });
});
