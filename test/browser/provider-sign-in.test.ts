import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, DESKTOP, PHONE, watch } from '../support/browser-session.js';
import { forumctl } from '../support/cli.js';
import { PUBLIC_URL } from '../support/env.js';
import { type IdentityServers, startIdentityServers } from '../support/identity-servers.js';

/**
 * Signing in with another provider in a real browser (contract §25; Debian's Chromium): the sign-in page's buttons,
 * the provider's own login and consent pages (oidc-provider's), our page asking for a login when the provider's is
 * taken, and the settings page showing the link; the sign-up page's buttons, in both languages. The browser starts
 * at the forum's public URL (routed to the suite's server), where the provider sends it back. Shot into
 * /tmp/provider-sign-in-*.png.
 */

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/provider-sign-in-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `/tmp/provider-sign-in-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

/**
 * A context whose requests to the forum's public URL reach the suite's server with its redirects handed to the
 * browser (the suite's route follows them itself, which would keep the browser at the forum's URL while it shows the
 * provider's page). Routes registered later are asked first.
 */
async function forumContext(suite: ReturnType<typeof browserSuite>): Promise<BrowserContext> {
  const context = await suite.newContext();
  await context.route(`${PUBLIC_URL}/**`, async (route) => {
    const url = route.request().url().replace(PUBLIC_URL, suite.server.url);
    await route.fulfill({ response: await route.fetch({ url, maxRedirects: 0 }) });
  });
  return context;
}

describe('Signing in with another provider, in a browser (contract §25)', function () {
  this.timeout(90_000);
  const suite = browserSuite();
  let servers: IdentityServers;

  before(async () => {
    servers = await startIdentityServers([`${PUBLIC_URL}/account/auth/oidc/callback`]);
  });
  after(() => servers?.close());

  it('signs up through the provider’s own pages, asks for a login when its is taken, and shows the link', async () => {
    const added = await forumctl(
      [
        'auth',
        'providers',
        'add',
        'oidc',
        '--kind',
        'oidc',
        '--issuer',
        servers.issuer,
        '--client-id',
        'forum',
        '--display-name',
        'Staff SSO',
      ],
      { stdin: 'forum-client-secret\n' },
    );
    expect(added.code, added.stderr).to.equal(0);
    const github = await forumctl(
      ['auth', 'providers', 'add', 'github', '--kind', 'github', '--client-id', 'gh-client', '--api-url', servers.github],
      { stdin: 'github-client-secret\n' },
    );
    expect(github.code, github.stderr).to.equal(0);
    // Someone here has the login the provider knows the person by: the page asks for another.
    const taken = await forumctl([
      'users',
      'create',
      'rowan',
      '--email',
      'rowan@elsewhere.example',
      '--password',
      'a long password',
    ]);
    expect(taken.code, taken.stderr).to.equal(0);
    // The provider's own login page asks who signs in (none set by the test).
    await servers.next({ oidc: null });

    const context = await forumContext(suite);
    const page = await context.newPage();
    const problems = watch(page);
    const failures: string[] = [];

    await page.goto(`${PUBLIC_URL}/account/sign-in`);
    const buttons = page.getByRole('navigation', { name: 'Or sign in with' }).getByRole('link');
    expect(await buttons.allInnerTexts()).to.deep.equal(['Sign in with Staff SSO', 'Sign in with GitHub']);
    await shoot(page, 'sign-in');
    failures.push(await suite.axe(page, '/account/sign-in (providers)'));

    await page.getByRole('link', { name: 'Sign in with Staff SSO' }).click();
    await page.waitForURL((url) => url.href.startsWith(servers.issuer));
    await shoot(page, 'provider-login');
    await page.locator('input[name=login]').fill('rowan');
    await page.locator('input[name=password]').fill('anything');
    await page.locator('button[type=submit]').click();
    await page.waitForURL((url) => url.href.startsWith(servers.issuer) && /consent|interaction/.test(url.pathname));
    await shoot(page, 'provider-consent');
    await page.locator('button[type=submit]').click();

    await page.waitForURL((url) => url.pathname === '/account/auth/oidc/callback');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Choose your login');
    await shoot(page, 'choose-login');
    failures.push(await suite.axe(page, '/account/auth/oidc/callback (choose a login)'));
    await page.getByLabel('Login').fill('rowan_sso');
    await page.getByRole('button', { name: 'Create my account' }).click();

    await page.waitForURL((url) => url.pathname === '/account/settings');
    await page.locator('#providers').scrollIntoViewIfNeeded();
    expect(await page.locator('ul.links').innerText()).to.contain('Linked with Staff SSO');
    await shoot(page, 'settings');
    failures.push(await suite.axe(page, '/account/settings (a provider linked)'));

    // Signed out, the sign-up page offers the same buttons, in both languages (axe once: the buttons are the same view).
    const anonymous = await (await forumContext(suite)).newPage();
    for (const lang of ['en', 'zh-CN']) {
      await anonymous.goto(`${PUBLIC_URL}/account/sign-up?lang=${lang}`);
      expect(await anonymous.locator('nav.providers a').count(), lang).to.equal(2);
      await shoot(anonymous, `sign-up-${lang}`);
    }
    failures.push(await suite.axe(anonymous, '/account/sign-up (zh-CN)'));
    await anonymous.goto(`${PUBLIC_URL}/account/sign-in?lang=zh-CN`);
    expect(await anonymous.locator('nav.providers a').allInnerTexts()).to.deep.equal(['使用 Staff SSO 登录', '使用 GitHub 登录']);
    await shoot(anonymous, 'sign-in-zh-CN');

    expect(failures.filter((found) => found !== '')).to.deep.equal([]);
    expect(problems.filter((problem) => problem.startsWith(PUBLIC_URL))).to.deep.equal([]);
  });
});
