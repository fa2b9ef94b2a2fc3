import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { BrowserContext } from 'playwright-core';
import { browserSuite, watch } from '../support/browser-session.js';
import { forumctl } from '../support/cli.js';
import { pkcePair } from '../support/oauth-flow.js';

/**
 * Sign in with the forum in a real browser (Debian's Chromium, playwright-core), with JavaScript off as the
 * pages promise to work without it, on a phone-sized screen: sign in, approve, land on the application's
 * redirect URI (a small local server) with a code that exchanges for a token. Screenshots of each page go
 * to test-output/ for a person to look at.
 */
const PASSWORD = 'correct horse battery';

/** The application's side: a redirect URI that records what it was sent. */
async function startCallbackServer(): Promise<{ url: string; received: URLSearchParams[]; close(): Promise<void> }> {
  const received: URLSearchParams[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // Only what comes to the redirect URI: the browser also asks for /favicon.ico.
    if (url.pathname === '/callback') received.push(url.searchParams);
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Client app</title><h1>Back in the client app</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('Sign in with the forum, in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite({ shots: 'test-output' });
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;
  let context: BrowserContext;
  let clientId: string;

  before(async () => {
    callback = await startCallbackServer();
  });

  beforeEach(async () => {
    const app = await forumctl(['apps', 'create', 'Forum Reader', '--public', '--redirect-uri', callback.url, '--json']);
    expect(app.code, app.stderr).to.equal(0);
    clientId = app.json<{ client_id: string }>().client_id;
    const user = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
    expect(user.code, user.stderr).to.equal(0);
    callback.received.length = 0;
    // A phone's browser with scripts off, closed after the test by the suite.
    context = await suite.newContext({ javaScriptEnabled: false, isMobile: true });
  });

  after(async () => {
    await callback?.close();
  });

  function authorizeUrl(challenge: string, redirectUri = callback.url): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      state: 'browser-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      scope: 'read',
    });
    return `${suite.server.url}/oauth/authorize?${query}`;
  }

  it('signs in, approves, and lands on the redirect URI with a code that buys a token', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await context.newPage();
    const problems = watch(page);

    expect((await page.goto(authorizeUrl(challenge)))?.status()).to.equal(200);
    expect(await page.title()).to.match(/sign in/i);
    expect(await page.locator('body').innerText()).to.include('Forum Reader');
    await page.screenshot({ path: 'test-output/oauth-sign-in.png', fullPage: true });

    await page.getByLabel(/login|e-mail/i).fill('alice');
    await page.getByLabel(/password/i).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').innerText()).to.include('Wrong login or password');
    expect(await page.getByLabel(/login|e-mail/i).inputValue()).to.equal('alice');
    await page.screenshot({ path: 'test-output/oauth-sign-in-failed.png', fullPage: true });

    await page.getByLabel(/password/i).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const consent = await page.locator('body').innerText();
    expect(consent).to.include('Forum Reader').and.include('alice');
    expect(consent).to.match(/read/i);
    await page.screenshot({ path: 'test-output/oauth-consent.png', fullPage: true });

    const landed = page.waitForURL((url) => url.href.startsWith(callback.url));
    await page.getByRole('button', { name: 'Approve' }).click();
    await landed;
    const returned = new URL(page.url()).searchParams;
    expect(returned.get('state')).to.equal('browser-state');
    expect(callback.received.at(-1)?.get('code')).to.equal(returned.get('code'));
    expect(await page.locator('h1').innerText()).to.equal('Back in the client app');

    const token = await fetch(`${suite.server.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: returned.get('code')!,
        redirect_uri: callback.url,
        code_verifier: verifier,
        client_id: clientId,
      }),
    });
    expect(token.status).to.equal(200);
    const issued = (await token.json()) as { access_token: string; scope: string };
    expect(issued.scope).to.equal('read');
    const hello = await fetch(`${suite.server.url}/api/v3/hello`, {
      headers: { Authorization: `Bearer ${issued.access_token}` },
    });
    expect(((await hello.json()) as { user: { login: string } }).user.login).to.equal('alice');

    const cookies = await context.cookies(`${suite.server.url}/oauth/authorize`);
    const session = cookies.find((cookie) => cookie.name === 'forum_session');
    expect(session).to.include({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(problems, 'console errors and warnings').to.deep.equal([]);
  });

  it('sends a denial back to the application', async () => {
    const page = await context.newPage();
    await page.goto(authorizeUrl(pkcePair().challenge));
    await page.getByLabel(/login|e-mail/i).fill('alice@example.com');
    await page.getByLabel(/password/i).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const landed = page.waitForURL((url) => url.href.startsWith(callback.url));
    await page.getByRole('button', { name: 'Deny' }).click();
    await landed;
    const returned = new URL(page.url()).searchParams;
    expect(returned.get('error')).to.equal('access_denied');
    expect(returned.get('state')).to.equal('browser-state');
    expect(returned.has('code')).to.equal(false);
  });

  it('shows an error page, and stays, for a redirect URI the application did not register', async () => {
    const page = await context.newPage();
    const problems = watch(page);
    const response = await page.goto(authorizeUrl(pkcePair().challenge, 'http://evil.example/steal'));
    expect(response?.status()).to.equal(400);
    expect(page.url().startsWith(suite.server.url)).to.equal(true);
    expect(await page.getByRole('alert').innerText()).to.match(/redirect_uri/);
    await page.screenshot({ path: 'test-output/oauth-error.png', fullPage: true });
    // Chromium reports the 400 itself; anything else (a blocked style sheet) would be a fault of the page.
    expect(problems.filter((problem) => !problem.includes('status of 400'))).to.deep.equal([]);
  });
});
