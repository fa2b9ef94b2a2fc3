import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type supertest from 'supertest';
import { forumctl } from '../support/cli.js';
import { makeUser } from '../support/builders.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';
import { type IdentityServers, startIdentityServers, throughProvider as through } from '../support/identity-servers.js';
import { formsOf } from '../support/oauth-flow.js';
import { checkedApi } from '../support/openapi.js';
import { formFor, submit } from '../support/page-forms.js';
import { stepAt, totpCode } from '../support/totp.js';

/**
 * Signing in with another provider (contract §25) against real parts: an oidc-provider process for OpenID Connect and
 * a stand-in for GitHub's endpoints; the forum's pages driven as a browser drives them (a cookie jar), the provider's
 * redirects followed with its own cookies.
 */

type Browser = ReturnType<typeof checkedApi>;
const newBrowser = (): Browser => checkedApi(testEnv().app, { cookies: true });
const FLOW_COOKIE = 'forum_provider_flow';

let servers: IdentityServers;
const throughProvider = (start: string) => through(start, PUBLIC_URL);

/** Starts a sign-in with `provider` and comes back through it: the forum's answer to the callback. */
async function signInWith(browser: Browser, provider: string): Promise<supertest.Response> {
  const started = await browser.get(`/account/auth/${provider}`).expect(302);
  return browser.get(await throughProvider(started.headers.location!));
}

/** How the stand-in issuer (startForgingIssuer) answers the token request. */
type TokenAnswer = 'honest' | 'foreign-key' | 'wrong-audience' | 'wrong-issuer';

/**
 * An OpenID provider of its own issuer URL in front of the real one: discovery is the real provider's (its
 * authorization and UserInfo endpoints), but the token endpoint and the keys are this one's. Its token endpoint
 * redeems the code at the real provider (PKCE and all) and answers with the real ID token's claims signed again as
 * `answer` says: honestly with the key it publishes, with a key it does not publish (a forgery), or with the wrong
 * `aud` or `iss`.
 */
async function startForgingIssuer(real: string): Promise<{ issuer: string; answer: TokenAnswer; close(): void }> {
  const published = await generateKeyPair('RS256');
  const rogue = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(published.publicKey)), kid: 'signing-key', alg: 'RS256', use: 'sig' };
  const realMetadata = (await (await fetch(`${real}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
  const state = { issuer: '', answer: 'honest' as TokenAnswer, close: () => server.close() };
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return json(200, {
        ...realMetadata,
        issuer: state.issuer,
        token_endpoint: `${state.issuer}/token`,
        jwks_uri: `${state.issuer}/jwks`,
        // The real provider names itself in the callback (RFC 9207); this issuer does not claim to.
        authorization_response_iss_parameter_supported: false,
      });
    }
    if (req.url === '/jwks') return json(200, { keys: [jwk] });
    if (req.url === '/token' && req.method === 'POST') {
      const redeemed = await fetch(String(realMetadata.token_endpoint), {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
        body,
      });
      const tokens = (await redeemed.json()) as Record<string, unknown>;
      if (!redeemed.ok) return json(redeemed.status, tokens);
      const claims = decodeJwt(String(tokens.id_token));
      const idToken = await new SignJWT({
        ...claims,
        iss: state.answer === 'wrong-issuer' ? real : state.issuer,
        aud: state.answer === 'wrong-audience' ? 'another-client' : claims.aud,
      })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
        .sign(state.answer === 'foreign-key' ? rogue.privateKey : published.privateKey);
      return json(200, { ...tokens, id_token: idToken });
    }
    json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

async function linksOf(login: string): Promise<string[]> {
  const rows = await testEnv().sql<{ provider: string; subject: string }>(
    'select l.provider, l.subject from provider_links l join users u on u.id = l.user_id where u.login = $1 order by 1',
    [login],
  );
  return rows.map((row) => `${row.provider}:${row.subject}`);
}

const alertOf = (html: string) => /<p class="alert" role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1]?.trim();

describe('signing in with another provider (contract §25)', function () {
  this.timeout(60_000);

  before(async () => {
    servers = await startIdentityServers([
      `${PUBLIC_URL}/account/auth/oidc/callback`,
      `${PUBLIC_URL}/account/auth/proxied/callback`,
    ]);
  });

  // Each test starts from an empty database (test/support/env.ts): the providers are configured again.
  beforeEach(async () => {
    process.env.TEST_OIDC_SECRET = 'forum-client-secret';
    const added = await forumctl([
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
      '--client-secret-env',
      'TEST_OIDC_SECRET',
      '--json',
    ]);
    expect(added.code, added.stderr).to.equal(0);
    expect(added.stdout).to.not.contain('forum-client-secret');
    const github = await forumctl(
      [
        'auth',
        'providers',
        'add',
        'github',
        '--kind',
        'github',
        '--client-id',
        'gh-client',
        '--authorize-url',
        `${servers.github}/login/oauth/authorize`,
        '--token-url',
        `${servers.github}/login/oauth/access_token`,
        '--api-url',
        servers.github,
      ],
      { stdin: 'github-client-secret\n' },
    );
    expect(github.code, github.stderr).to.equal(0);
  });

  after(() => servers?.close());

  it('lists, stores sealed and audits providers; never prints the secret', async () => {
    const list = await forumctl(['auth', 'providers', 'list']);
    expect(list.stdout).to.contain('oidc').and.contain('github').and.contain('Staff SSO');
    expect(list.stdout).to.not.contain('forum-client-secret').and.not.contain('github-client-secret');
    const rows = await testEnv().sql<{ client_secret_sealed: string }>('select client_secret_sealed from sign_in_providers');
    expect(rows).to.have.length(2);
    for (const row of rows) expect(row.client_secret_sealed).to.match(/^v1\./).and.not.contain('secret');
    const audited = await testEnv().sql<{ action: string; changes: string }>(
      "select action, changes::text from audit_entries where action like 'provider.%'",
    );
    expect(audited.map((entry) => entry.action)).to.deep.equal(['provider.add', 'provider.add']);
    expect(audited.map((entry) => entry.changes).join()).to.not.contain('secret-');
    const page = await newBrowser().get('/account/sign-in').expect(200);
    expect(page.text).to.contain('href="/account/auth/oidc?lang=en"').and.contain('Sign in with Staff SSO');

    await forumctl(['auth', 'providers', 'add', 'gone', '--kind', 'oidc', '--issuer', servers.issuer, '--client-id', 'x'], {
      stdin: 'gone-secret\n',
    });
    const removed = await forumctl(['auth', 'providers', 'remove', 'gone', '--yes']);
    expect(removed.code, removed.stderr).to.equal(0);
    expect((await forumctl(['auth', 'providers', 'remove', 'gone', '--yes'])).code).to.not.equal(0);
  });

  it('makes a new account with a verified address, and signs it in again by its link', async () => {
    await servers.next({
      oidc: { sub: 'sub-nina', email: 'nina@example.org', email_verified: true, preferred_username: 'nina' },
    });
    const browser = newBrowser();
    const back = await signInWith(browser, 'oidc');
    expect(back.status, back.text.slice(0, 800)).to.equal(303);
    expect(back.headers.location).to.equal('/account/settings?lang=en');
    expect(await linksOf('nina')).to.deep.equal(['oidc:sub-nina']);
    const settings = await browser.get('/account/settings').expect(200);
    expect(settings.text).to.contain('Linked with Staff SSO');
    // It has no password: no field asks for one; a link mailed to its address sets one, and it leaves by its login.
    expect(settings.text).to.not.contain('name="current_password"');
    const ownForms = formsOf(settings.text).map((candidate) => candidate.fields.form);
    expect(ownForms).to.include('set_password').and.not.include('password').and.not.include('email');
    expect(settings.text).to.contain('Type your login, nina, to confirm');
    // The only way in: no Remove button, and a remove sent anyway is refused.
    expect(settings.text).to.contain('This is your only way to sign in');
    const form = formsOf(settings.text).find((candidate) => candidate.action.startsWith('/account/auth/oidc/unlink'));
    expect(form, 'the unlink form').to.exist;
    const refused = await browser.post(form!.action).type('form').send(form!.fields);
    expect(refused.status).to.equal(400);
    expect(alertOf(refused.text)).to.contain('only way to sign in');
    expect(await linksOf('nina')).to.deep.equal(['oidc:sub-nina']);

    const again = await signInWith(newBrowser(), 'oidc');
    expect(again.status).to.equal(303);
    expect((await testEnv().sql('select 1 from users where email = $1', ['nina@example.org'])).length).to.equal(1);
  });

  it('links by a verified address, never by an unverified one', async () => {
    const owner = await makeUser('olga');
    await servers.next({
      oidc: { sub: 'sub-mallory', email: 'olga@example.com', email_verified: false, preferred_username: 'mallory' },
    });
    const refused = await signInWith(newBrowser(), 'oidc');
    expect(refused.status).to.equal(400);
    expect(alertOf(refused.text)).to.contain('does not say your e-mail address is verified');
    expect(await linksOf('olga')).to.deep.equal([]);

    await servers.next({ oidc: { sub: 'sub-olga', email: 'olga@example.com', email_verified: true } });
    const linked = await signInWith(newBrowser(), 'oidc');
    expect(linked.status).to.equal(303);
    expect(await linksOf(owner.login)).to.deep.equal(['oidc:sub-olga']);
  });

  it('asks for a login when the provider’s is taken', async () => {
    await makeUser('taken');
    await servers.next({
      oidc: { sub: 'sub-other', email: 'other@example.org', email_verified: true, preferred_username: 'taken' },
    });
    const browser = newBrowser();
    const asked = await signInWith(browser, 'oidc');
    expect(asked.status).to.equal(200);
    const form = formsOf(asked.text).find((candidate) => candidate.action.startsWith('/account/auth/oidc/login'))!;
    const again = await browser
      .post(form.action)
      .type('form')
      .send({ ...form.fields, login: 'taken' });
    expect(alertOf(again.text)).to.contain('Login has already been taken');
    const made = await browser
      .post(form.action)
      .type('form')
      .send({ ...form.fields, login: 'other_one' });
    expect(made.status).to.equal(303);
    expect(await linksOf('other_one')).to.deep.equal(['oidc:sub-other']);
  });

  it('refuses a wrong state and a wrong nonce', async () => {
    await servers.next({ oidc: { sub: 'sub-eve', email: 'eve@example.org', email_verified: true } });
    const browser = newBrowser();
    const started = await browser.get('/account/auth/oidc').expect(302);
    const callback = new URL(await throughProvider(started.headers.location!), PUBLIC_URL);
    callback.searchParams.set('state', 'not-the-state');
    const wrongState = await browser.get(`${callback.pathname}${callback.search}`);
    expect(wrongState.status).to.equal(400);
    expect(alertOf(wrongState.text)).to.contain('could not be checked');

    // The flow's cookie with another nonce than the one the ID token carries.
    const second = newBrowser();
    const flowStarted = await second.get('/account/auth/oidc').expect(302);
    const cookie = (flowStarted.headers['set-cookie'] as unknown as string[]).find((line) => line.startsWith(`${FLOW_COOKIE}=`))!;
    const flow = JSON.parse(Buffer.from(cookie.split(';')[0]!.split('=')[1]!, 'base64url').toString()) as { nonce: string };
    const tampered = Buffer.from(JSON.stringify({ ...flow, nonce: 'another-nonce' })).toString('base64url');
    const back = await throughProvider(flowStarted.headers.location!);
    const wrongNonce = await checkedApi(testEnv().app).get(back).set('Cookie', `${FLOW_COOKIE}=${tampered}`);
    expect(wrongNonce.status).to.equal(400);
    expect(await testEnv().sql('select 1 from provider_links where subject = $1', ['sub-eve'])).to.have.length(0);
  });

  it('refuses an ID token signed with another key than the provider’s, or for another audience or issuer', async () => {
    const forging = await startForgingIssuer(servers.issuer);
    try {
      const added = await forumctl(
        ['auth', 'providers', 'add', 'proxied', '--kind', 'oidc', '--issuer', forging.issuer, '--client-id', 'forum'],
        { stdin: 'forum-client-secret\n' },
      );
      expect(added.code, added.stderr).to.equal(0);
      const claims = { sub: 'sub-fay', email: 'fay@example.org', email_verified: true, preferred_username: 'fay' };
      const attempt = async (answer: TokenAnswer) => {
        forging.answer = answer;
        await servers.next({ oidc: claims });
        const browser = newBrowser();
        const started = await browser.get('/account/auth/proxied').expect(302);
        const callback = new URL(await throughProvider(started.headers.location!), PUBLIC_URL);
        // The real provider's `iss` in the callback names it, not the stand-in: a browser that is not ours would not carry it.
        callback.searchParams.delete('iss');
        const back = await browser.get(`${callback.pathname}${callback.search}`);
        return { back, signedIn: (await browser.get('/account/settings')).status === 200 };
      };
      for (const answer of ['foreign-key', 'wrong-audience', 'wrong-issuer'] as const) {
        const { back, signedIn } = await attempt(answer);
        expect(back.status, answer).to.equal(400);
        expect(alertOf(back.text), answer).to.contain('could not be checked');
        expect(signedIn, answer).to.equal(false);
        expect(await testEnv().sql('select 1 from users where email = $1', [claims.email]), answer).to.have.length(0);
      }
      // The same flow with the token signed as the provider publishes it: what was refused was the token alone.
      const honest = await attempt('honest');
      expect(honest.back.status, honest.back.text.slice(0, 500)).to.equal(303);
      expect(honest.signedIn).to.equal(true);
      expect(await linksOf('fay')).to.deep.equal(['proxied:sub-fay']);
    } finally {
      forging.close();
    }
  });

  it('asks an account with a second factor for its code before it is signed in', async () => {
    const tess = await makeUser('tess');
    const env = testEnv();
    const { StartTotpEnrolment, ConfirmTotpEnrolment } = await import('../../src/application/second-factors/enrolment.js');
    const acting = { id: tess.id, login: tess.login, role: 'member' as const };
    const { secret } = await env.scope(() => env.container.get(StartTotpEnrolment).execute(acting));
    const step = stepAt(Date.now());
    await env.scope(() => env.container.get(ConfirmTotpEnrolment).execute(acting, { code: totpCode(secret, step) }));
    await servers.next({ oidc: { sub: 'sub-tess', email: 'tess@example.com', email_verified: true } });

    const browser = newBrowser();
    const back = await signInWith(browser, 'oidc');
    expect(back.status, back.text.slice(0, 500)).to.equal(303);
    expect(back.headers.location).to.equal('/account/sign-in/code?lang=en');
    expect(String(back.headers['set-cookie'])).to.not.include('forum_session=');
    await browser.get('/account/settings').expect(303);
    const codePage = await browser.get('/account/sign-in/code').expect(200);
    const done = await submit(browser, formFor(codePage.text, '/account/sign-in/code'), {
      code: totpCode(secret, step + 1),
    }).expect(303);
    expect(done.headers.location).to.equal('/account/settings?lang=en');
    const settings = await browser.get('/account/settings').expect(200);
    expect(settings.text).to.contain('Linked with Staff SSO');
  });

  it('signs in a GitHub member through GitHub’s web flow and the verified primary address', async () => {
    await servers.next({
      github: {
        id: 4242,
        login: 'octo',
        name: 'Octo Cat',
        emails: [
          { email: 'octo@users.example', primary: false, verified: true },
          { email: 'octo@example.org', primary: true, verified: true },
        ],
      },
    });
    const back = await signInWith(newBrowser(), 'github');
    expect(back.status, back.text.slice(0, 500)).to.equal(303);
    expect(await linksOf('octo')).to.deep.equal(['github:4242']);
    const [row] = await testEnv().sql<{ email: string; state: string; password_hash: string | null }>(
      "select email, state, password_hash from users where login = 'octo'",
    );
    expect(row).to.deep.equal({ email: 'octo@example.org', state: 'active', password_hash: null });
  });
});
