import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { JobRuntime } from '../../src/adapters/jobs/runtime.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';
import { mailedLink, startMailWorker } from '../support/browser-mail.js';
import { axe, describeViolations } from '../support/axe.js';
import { browserSuite, PHONE, watch } from '../support/browser-session.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pkcePair } from '../support/oauth-flow.js';

/**
 * Joining in a real browser (Debian's Chromium, playwright-core), JavaScript off, on a phone-sized screen: sign
 * up from an application's sign-in page, follow the link of the mail the mail worker wrote (read with forumctl mail),
 * confirm, and land on the consent page signed in; the same in approval mode, through an administrator's approval
 * to the token; forget a password, reset it, and the old
 * tokens are dead; in English and Simplified Chinese. Each page is shot at phone (390×844) and desktop (1280×800)
 * width into /tmp/pages-*.png for a person to look at; in a dark theme, every account page (and its refusals) is
 * checked by axe-core and shot into /tmp/pages-dark-*.png.
 */
const PASSWORD = 'correct horse battery';
const DESKTOP = { width: 1280, height: 800 };

/** The page at phone width, then at desktop width (and back). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/pages-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `/tmp/pages-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

/** The application's side of the code flow: a redirect URI that answers a page. */
async function startCallback(): Promise<{ url: string; close(): Promise<void> }> {
  const callback = http.createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Client app</title><h1>Back in the client app</h1>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  const { port } = callback.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, close: () => new Promise((resolve) => callback.close(() => resolve())) };
}

describe('Joining the forum, in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite();
  let mailWorker: JobRuntime;

  before(async () => {
    mailWorker = await startMailWorker();
  });

  after(async () => {
    await mailWorker?.stop();
  });

  const newContext = (locale = 'en-US') => suite.newContext({ javaScriptEnabled: false, isMobile: true, locale });

  it('signs up from an application’s sign-in page, confirms the mailed link, and is back at its consent page', async () => {
    const redirect = 'http://127.0.0.1:9/callback';
    const app = await forumctl(['apps', 'create', 'Forum Reader', '--public', '--redirect-uri', redirect, '--json']);
    expect(app.code, app.stderr).to.equal(0);
    const context = await newContext();
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
    await page.goto(`${suite.server.url}/oauth/authorize?${query}`);
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
    // Posted, then shown: a reload shows the same page and posts nothing again.
    expect(new URL(page.url()).pathname).to.equal('/account/sign-up/sent');
    await page.reload();
    expect(await page.getByRole('status').innerText()).to.include('alice@example.com');
    await shoot(page, 'check-mail');

    // The mailed link, opened in the same browser.
    const verifyLink = await mailedLink('alice@example.com', '/account/verify', suite.server.url);
    await page.goto(verifyLink);
    expect(await page.locator('body').innerText()).to.include('alice');
    await shoot(page, 'verify');
    await page.getByRole('button', { name: 'Confirm' }).click();
    expect(new URL(page.url()).pathname).to.equal('/oauth/authorize');
    const consent = await page.locator('body').innerText();
    expect(consent).to.include('Forum Reader').and.include('alice');
    expect(await page.getByRole('button', { name: 'Approve' }).isVisible()).to.equal(true);
    await shoot(page, 'consent-after-sign-up');

    // The link opened again: the address is confirmed already, and the page goes on to the settings.
    await page.goto(verifyLink);
    expect(await page.getByRole('status').innerText()).to.include('confirmed already');
    await shoot(page, 'already-confirmed');
    await page.getByRole('link', { name: 'Account settings' }).click();
    expect(new URL(page.url()).pathname).to.equal('/account/settings');

    const session = (await context.cookies(suite.server.url)).find((cookie) => cookie.name === 'forum_session');
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Chromium reports a refused form's 400 itself; anything else (a blocked style sheet) is a fault of the page.
    expect(
      problems.filter((problem) => !problem.includes('status of 400')),
      'console errors and warnings',
    ).to.deep.equal([]);
  });

  it('REGISTRATION=approval: sign up, the mail, confirm, wait, an administrator approves, sign in, a token', async () => {
    const approval = await suite.listen(configuredWith({ registration: 'approval' }).app);
    const callback = await startCallback();
    try {
      const app = await forumctl(['apps', 'create', 'Forum Reader', '--public', '--redirect-uri', callback.url, '--json']);
      const clientId = app.json<{ client_id: string }>().client_id;
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(`${approval.url}/account/sign-up`);
      await page.getByLabel('Login').fill('dora');
      await page.getByLabel('E-mail').fill('dora@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      expect(await page.getByRole('status').innerText()).to.include('dora@example.com');

      await page.goto(await mailedLink('dora@example.com', '/account/verify', approval.url));
      await page.getByRole('button', { name: 'Confirm' }).click();
      expect(await page.locator('body').innerText()).to.match(/approv/i);
      await shoot(page, 'verified-waiting');
      const pending = (await forumctl(['users', 'pending', '--json'])).json<{ users: { login: string }[] }>().users;
      expect(pending.map((user) => user.login)).to.deep.equal(['dora']);
      expect((await forumctl(['users', 'approve', 'dora'])).code).to.equal(0);

      const { verifier, challenge } = pkcePair();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callback.url,
        state: 'after-approval',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      await page.goto(`${approval.url}/oauth/authorize?${query}`);
      await page.getByLabel(/login|e-mail/i).fill('dora');
      await page.getByLabel(/password/i).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const landed = page.waitForURL((url) => url.href.startsWith(callback.url));
      await page.getByRole('button', { name: 'Approve' }).click();
      await landed;
      const code = new URL(page.url()).searchParams.get('code')!;
      const token = await fetch(`${approval.url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: callback.url,
          code_verifier: verifier,
          client_id: clientId,
        }),
      });
      expect(token.status).to.equal(200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      const hello = await fetch(`${approval.url}/api/v3/hello`, { headers: { Authorization: `Bearer ${accessToken}` } });
      expect(((await hello.json()) as { user: { login: string } }).user.login).to.equal('dora');
    } finally {
      await callback.close();
    }
  });

  it('forgot → reset: a new password, signed in, and the old tokens are dead', async () => {
    const made = await forumctl(['users', 'create', 'bob', '--email', 'bob@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const issued = await forumctl(['tokens', 'issue', 'bob', '--json']);
    expect(issued.code, issued.stderr).to.equal(0);
    const oldToken = issued.json<{ access_token: string }>().access_token;
    const hello = (token: string) =>
      fetch(`${suite.server.url}/api/v3/hello`, { headers: { Authorization: `Bearer ${token}` } }).then((res) => res.status);
    expect(await hello(oldToken)).to.equal(200);

    const context = await newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${suite.server.url}/account/password/forgot`);
    await shoot(page, 'forgot');
    await page.getByLabel('Login or e-mail').fill('bob@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.getByRole('status').innerText()).to.include('If there is such an account');
    await shoot(page, 'forgot-sent');

    await page.goto(await mailedLink('bob@example.com', '/account/password/reset', suite.server.url));
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
    expect((await context.cookies(suite.server.url)).some((cookie) => cookie.name === 'forum_session')).to.equal(true);
    // Chromium reports a refused form's 400 itself; anything else (a blocked style sheet) is a fault of the page.
    expect(
      problems.filter((problem) => !problem.includes('status of 400')),
      'console errors and warnings',
    ).to.deep.equal([]);
  });

  it('a reset link for an account without a password chooses its first (contract §25)', async () => {
    const made = await forumctl(['users', 'create', 'gina', '--email', 'gina@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    await testEnv().sql("update users set password_hash = null where login = 'gina'");
    const context = await newContext();
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${suite.server.url}/account/password/forgot`);
    await page.getByLabel('Login or e-mail').fill('gina');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.goto(await mailedLink('gina@example.com', '/account/password/reset', suite.server.url));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Choose a password');
    await shoot(page, 'first-password');
    await page.getByLabel('Password', { exact: true }).fill('a first passphrase');
    await page.getByLabel('Password again').fill('a first passphrase');
    await page.getByRole('button', { name: 'Set password' }).click();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Password set');
    expect(await page.getByRole('status').innerText()).to.include('you may also sign in with gina and this password');
    await shoot(page, 'first-password-done');
    expect(problems, 'console errors and warnings').to.deep.equal([]);
  });

  it('speaks Simplified Chinese to a Chinese browser, and switches language by its link', async () => {
    const context = await newContext('zh-CN');
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${suite.server.url}/account/sign-up`);
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

    await page.goto(await mailedLink('carol@example.com', '/account/verify', suite.server.url));
    await shoot(page, 'verify-zh');
    await page.getByRole('button', { name: '确认' }).click();
    expect(await page.getByRole('status').innerText()).to.include('你已作为 carol 登录');
    await shoot(page, 'verified-zh');

    await page.goto(`${suite.server.url}/account/password/forgot`);
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

  it('in a dark theme, in both languages, axe-core finds nothing serious on the account pages', async () => {
    const redirect = 'http://127.0.0.1:9/callback';
    const app = await forumctl(['apps', 'create', 'Forum Reader', '--public', '--redirect-uri', redirect, '--json']);
    expect(app.code, app.stderr).to.equal(0);
    const authorize = `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: app.json<{ client_id: string }>().client_id,
      redirect_uri: redirect,
      state: 'dark',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    })}`;
    const found: string[] = [];
    /** The button of the form that posts to `path`. */
    const send = (page: Page, path: string) => page.locator(`form[action^="${path}?"] button[type=submit]`).click();
    for (const lang of ['en', 'zh-CN'] as const) {
      const login = lang === 'en' ? 'erin' : 'fang';
      const made = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD]);
      expect(made.code, made.stderr).to.equal(0);
      // Scripts on (axe is one) and the CSP bypassed for it: the account pages have no script of their own.
      const context = await suite.newContext({ colorScheme: 'dark', bypassCSP: true, isMobile: true, locale: lang });
      const page = await context.newPage();
      const problems = watch(page);
      /** The page as it is now: shot, then checked (the OAuth pages are in English only). */
      const look = async (name: string) => {
        const written = new URL(page.url()).pathname.startsWith('/oauth/') ? 'en' : lang;
        expect(await page.locator('html').getAttribute('lang'), name).to.equal(written);
        // A page left on the browser's canvas is dark to the eye but white to axe: its contrast would go unchecked.
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background, `${name}: the page's own background`).to.equal('rgb(24, 24, 27)');
        await page.screenshot({ path: `/tmp/pages-dark-${name}-${lang}.png`, fullPage: true });
        const violations = await axe(page);
        if (violations.length > 0) found.push(describeViolations(`${name} (${lang}, dark)`, violations));
      };
      const go = async (path: string, name: string) => {
        await page.goto(`${suite.server.url}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
        await look(name);
      };

      await go('/account/sign-in', 'sign-in');
      await go('/account/sign-up', 'sign-up');
      await page.locator('#login').fill(`new${login}`);
      await page.locator('#email').fill(`new${login}@example.com`);
      await page.locator('#password').fill('password');
      await send(page, '/account/sign-up');
      expect(await page.getByRole('alert').count()).to.equal(1);
      await look('sign-up-refused');
      await page.locator('#password').fill(PASSWORD);
      await send(page, '/account/sign-up');
      expect(await page.getByRole('status').innerText()).to.include(`new${login}@example.com`);
      await look('check-mail');
      await page.goto(await mailedLink(`new${login}@example.com`, '/account/verify', suite.server.url));
      await look('verify');

      await go('/account/password/forgot', 'forgot');
      await page.locator('#login').fill(`${login}@example.com`);
      await send(page, '/account/password/forgot');
      expect(await page.getByRole('status').count()).to.equal(1);
      await look('forgot-sent');
      await page.goto(await mailedLink(`${login}@example.com`, '/account/password/reset', suite.server.url));
      await look('reset');
      // Refused: a password that is the account's e-mail.
      await page.locator('input[name=password]').fill(`${login}@example.com`);
      await page.locator('input[name=password_confirmation]').fill(`${login}@example.com`);
      await send(page, '/account/password/reset');
      expect(await page.getByRole('alert').count()).to.equal(1);
      await look('reset-refused');

      await go('/account/unsubscribe?key=not-one-of-ours', 'unsubscribe-unknown');
      await go(authorize, 'oauth-sign-in');
      await suite.signIn(page, login, PASSWORD, { lang });
      await go('/account/settings', 'settings');
      await go(authorize, 'consent');
      expect(
        problems.filter((problem) => !/status of 40[04]/.test(problem)),
        'console errors and warnings',
      ).to.deep.equal([]);
    }
    expect(found.join('\n')).to.equal('');
  });
});
