import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { listen, type RunningServer } from '../../src/adapters/http/server.js';
import { MailTokenKeys } from '../../src/application/ports.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { pkcePair } from '../support/oauth-flow.js';

/**
 * Joining in a real browser (Debian's Chromium, playwright-core), JavaScript off, on a phone-sized screen: sign
 * up from an application's sign-in page, follow the mailed link (its token derived from the database as the mail
 * writer derives it), confirm, and land on the consent page signed in; forget a password, reset it, and the old
 * tokens are dead; in English and Simplified Chinese. Each page is shot at phone (390×844) and desktop (1280×800)
 * width into /tmp/pages-*.png for a person to look at.
 */
const PASSWORD = 'correct horse battery';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function linkToken(login: string, purpose: string): Promise<string> {
  const rows = await testEnv().sql<{ id: string }>(
    `select t.id from account_tokens t join users u on u.id = t.user_id
     where u.login = $1 and t.purpose = $2 order by t.created_at desc, t.id desc limit 1`,
    [login, purpose],
  );
  expect(rows, `a ${purpose} token for ${login}`).to.have.length(1);
  return testEnv().container.get<MailTokenKeys>(MailTokenKeys).tokenFor(rows[0]!.id);
}

/** Whatever the page complains about (a blocked style sheet, a refused form target) fails the test. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** The page at phone width, then at desktop width (and back). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/pages-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `/tmp/pages-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

describe('Joining the forum, in a browser', function () {
  this.timeout(90_000);
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    server = await listen(testEnv().app, 0, '127.0.0.1');
    browser = await launchChromium();
  });

  afterEach(async () => {
    await context?.close();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const newContext = (locale = 'en-US') =>
    browser.newContext({ javaScriptEnabled: false, viewport: PHONE, isMobile: true, locale });

  it('signs up from an application’s sign-in page, confirms the mailed link, and is back at its consent page', async () => {
    const redirect = 'http://127.0.0.1:9/callback';
    const app = await forumctl(['apps', 'create', 'Forum Reader', '--public', '--redirect-uri', redirect, '--json']);
    expect(app.code, app.stderr).to.equal(0);
    context = await newContext();
    const page = await context.newPage();
    const problems = watch(page);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: app.json<{ client_id: string }>().client_id,
      redirect_uri: redirect,
      state: 'browser-state',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    await page.goto(`${server.url}/oauth/authorize?${query}`);
    await shoot(page, 'oauth-sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    expect(new URL(page.url()).pathname).to.equal('/account/sign-up');
    expect(await page.locator('html').getAttribute('lang')).to.equal('en');
    await shoot(page, 'sign-up');

    await page.getByLabel('Login').fill('alice');
    await page.getByLabel('E-mail').fill('alice@example.com');
    await page.getByLabel('Password').fill('password');
    await page.getByLabel(/^Name/).fill('Alice');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.getByRole('alert').innerText()).to.match(/most common passwords/);
    expect(await page.getByLabel('Login').inputValue()).to.equal('alice');
    expect(await page.getByLabel('Password').inputValue()).to.equal('');
    await shoot(page, 'sign-up-refused');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.getByRole('status').innerText()).to.include('alice@example.com');
    await shoot(page, 'check-mail');

    // The mailed link, opened in the same browser.
    await page.goto(`${server.url}/account/verify?token=${await linkToken('alice', 'verify')}`);
    expect(await page.locator('body').innerText()).to.include('alice');
    await shoot(page, 'verify');
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect(new URL(page.url()).pathname).to.equal('/oauth/authorize');
    const consent = await page.locator('body').innerText();
    expect(consent).to.include('Forum Reader').and.include('alice');
    expect(await page.getByRole('button', { name: 'Approve' }).isVisible()).to.equal(true);
    await shoot(page, 'consent-after-sign-up');

    const session = (await context.cookies(server.url)).find((cookie) => cookie.name === 'forum_session');
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Chromium reports a refused form's 400 itself; anything else (a blocked style sheet) is a fault of the page.
    expect(
      problems.filter((problem) => !problem.includes('status of 400')),
      'console errors and warnings',
    ).to.deep.equal([]);
  });

  it('forgot → reset: a new password, signed in, and the old tokens are dead', async () => {
    const made = await forumctl(['users', 'create', 'bob', '--email', 'bob@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const issued = await forumctl(['tokens', 'issue', 'bob', '--json']);
    expect(issued.code, issued.stderr).to.equal(0);
    const oldToken = issued.json<{ access_token: string }>().access_token;
    const hello = (token: string) =>
      fetch(`${server.url}/api/v3/hello`, { headers: { Authorization: `Bearer ${token}` } }).then((res) => res.status);
    expect(await hello(oldToken)).to.equal(200);

    context = await newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/account/password/forgot`);
    await shoot(page, 'forgot');
    await page.getByLabel('Login or e-mail').fill('bob@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.getByRole('status').innerText()).to.include('If there is such an account');
    await shoot(page, 'forgot-sent');

    await page.goto(`${server.url}/account/password/reset?token=${await linkToken('bob', 'reset')}`);
    await shoot(page, 'reset');
    await page.getByLabel('New password', { exact: true }).fill('bob@example.com');
    await page.getByLabel('New password again').fill('bob@example.com');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.getByRole('alert').innerText()).to.include('must not be your login or e-mail');
    await shoot(page, 'reset-refused');
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('New password again').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.getByRole('status').innerText())
      .to.include('every other session')
      .and.include('bob');
    await shoot(page, 'reset-done');

    expect(await hello(oldToken)).to.equal(401);
    expect((await context.cookies(server.url)).some((cookie) => cookie.name === 'forum_session')).to.equal(true);
    // Chromium reports a refused form's 400 itself; anything else (a blocked style sheet) is a fault of the page.
    expect(
      problems.filter((problem) => !problem.includes('status of 400')),
      'console errors and warnings',
    ).to.deep.equal([]);
  });

  it('speaks Simplified Chinese to a Chinese browser, and switches language by its link', async () => {
    context = await newContext('zh-CN');
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${server.url}/account/sign-up`);
    expect(await page.locator('html').getAttribute('lang')).to.equal('zh-CN');
    expect(await page.locator('h1').innerText()).to.equal('注册账户');
    await shoot(page, 'sign-up-zh');

    await page.getByLabel('用户名').fill('carol');
    await page.getByLabel('电子邮件').fill('carol@example.com');
    await page.getByLabel('密码').fill('12345678');
    await page.getByRole('button', { name: '注册' }).click();
    expect(await page.getByRole('alert').innerText()).to.include('最常见的密码');
    await shoot(page, 'sign-up-refused-zh');
    await page.getByLabel('密码').fill(PASSWORD);
    await page.getByRole('button', { name: '注册' }).click();
    expect(await page.getByRole('status').innerText()).to.include('carol@example.com');
    await shoot(page, 'check-mail-zh');

    await page.goto(`${server.url}/account/verify?token=${await linkToken('carol', 'verify')}`);
    await shoot(page, 'verify-zh');
    await page.getByRole('button', { name: '确认' }).click();
    expect(await page.getByRole('status').innerText()).to.include('你已作为 carol 登录');
    await shoot(page, 'verified-zh');

    await page.goto(`${server.url}/account/password/forgot`);
    expect(await page.locator('h1').innerText()).to.equal('忘记密码？');
    await shoot(page, 'forgot-zh');
    await page.getByRole('link', { name: 'English' }).click();
    expect(await page.locator('html').getAttribute('lang')).to.equal('en');
    expect(await page.locator('h1').innerText()).to.equal('Forgot your password?');
    // Chromium reports a refused form's 400 itself; anything else (a blocked style sheet) is a fault of the page.
    expect(
      problems.filter((problem) => !problem.includes('status of 400')),
      'console errors and warnings',
    ).to.deep.equal([]);
  });
});
