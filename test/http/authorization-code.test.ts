import { createHash } from 'node:crypto';
import { expect } from 'chai';
import type supertest from 'supertest';
import { createApp } from '../../src/server/app.js';
import { checkedApi } from '../support/openapi.js';
import { api, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { appDependencies, testEnv } from '../support/env.js';
import { type PageForm, formTo, locationQuery, pkcePair } from '../support/oauth-flow.js';

/**
 * The authorization code grant with PKCE (contract §10), driven as a browser drives it: a cookie jar, the
 * pages' forms with their hidden fields, redirects followed by hand so that each one can be checked.
 */

const REDIRECT = 'http://client.test/callback';
const PASSWORD = 'correct horse battery';

interface RegisteredApp {
  client_id: string;
  client_secret: string | null;
  redirect_uris: string[];
}

type Browser = ReturnType<typeof checkedApi>;

async function registerApp(args: string[]): Promise<RegisteredApp> {
  const res = await forumctl(['apps', 'create', ...args, '--json']);
  expect(res.code, res.stderr).to.equal(0);
  return res.json<RegisteredApp>();
}

async function makePasswordUser(login: string) {
  const res = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD, '--json']);
  expect(res.code, res.stderr).to.equal(0);
}

const newBrowser = (): Browser => checkedApi(testEnv().app, { cookies: true });

function submit(browser: Browser, form: PageForm, extra: Record<string, string> = {}): supertest.Test {
  return browser
    .post(form.action)
    .type('form')
    .send({ ...form.fields, ...extra });
}

function setCookies(res: supertest.Response): string[] {
  const header = res.headers['set-cookie'] as string[] | string | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

const cookieNamed = (res: supertest.Response, name: string) => setCookies(res).find((line) => line.startsWith(`${name}=`));

const exchange = (body: Record<string, string>) => api().post('/oauth/token').type('form').send(body);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const hello = (token: string) => api().get('/api/v3/hello').set(bearer(token));
const codeCount = async () => Number((await testEnv().sql<{ n: string }>('select count(*) as n from oauth_codes'))[0]!.n);

describe('The authorization code grant with PKCE, as a browser drives it', () => {
  let app: RegisteredApp;
  let pkce: { verifier: string; challenge: string };
  let query: Record<string, string>;

  beforeEach(async () => {
    app = await registerApp(['Client app', '--public', '--redirect-uri', REDIRECT, '--redirect-uri', 'http://127.0.0.1:8765/cb']);
    await makePasswordUser('alice');
    pkce = pkcePair();
    query = {
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      state: 'state-42 with spaces',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    };
  });

  /** The sign-in page, and the form on it, for this request. */
  async function signInForm(browser: Browser, request = query): Promise<PageForm> {
    const page = await browser
      .get('/oauth/authorize')
      .query(request)
      .expect(200)
      .expect('Content-Type', /text\/html/);
    return formTo(page.text, '/oauth/authorize');
  }

  /** Signs in on the page and follows the 303 to the consent page. */
  async function consentPage(browser: Browser, request = query): Promise<supertest.Response> {
    const signedIn = await submit(browser, await signInForm(browser, request), { login: 'alice', password: PASSWORD }).expect(
      303,
    );
    return browser.get(signedIn.headers.location!).expect(200);
  }

  /** Presses one of the consent page's buttons (approve or deny); returns the response (a 302 to the app). */
  function press(browser: Browser, consent: supertest.Response, step: 'approve' | 'deny'): supertest.Test {
    const form = formTo(consent.text, '/oauth/authorize');
    const button = form.buttons.find((candidate) => candidate.value === step);
    expect(button, `a ${step} button`).to.exist;
    return submit(browser, form, { [button!.name!]: button!.value! });
  }

  /** The whole browser part: sign in, approve, and the query the app receives. */
  async function codeFor(request = query, browser = newBrowser()): Promise<Record<string, string>> {
    const approved = await press(browser, await consentPage(browser, request), 'approve');
    expect(approved.status).to.equal(302);
    return locationQuery(approved.headers.location!);
  }

  const redeem = (code: string, verifier = pkce.verifier, extra: Record<string, string> = {}) =>
    exchange({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: app.client_id,
      ...extra,
    });

  it('signs in, asks for consent, redirects with code and state, and the code and verifier buy a token', async () => {
    const browser = newBrowser();
    const page = await browser
      .get('/oauth/authorize')
      .query(query)
      .expect(200)
      .expect('Content-Type', /text\/html; charset=utf-8/)
      .expect('Cache-Control', 'no-store')
      .expect('X-Frame-Options', 'DENY');
    expect(page.headers['content-security-policy']).to.include("frame-ancestors 'none'").and.include("form-action 'self'");
    expect(page.text).to.include('Client app').and.include('name="viewport"');
    // The one inline style sheet is allowed by its hash: the hash must be that of the text the page carries.
    const sheet = /<style>([\s\S]*?)<\/style>/.exec(page.text)![1]!;
    const digest = createHash('sha256').update(sheet).digest('base64');
    expect(page.headers['content-security-policy']).to.include(`style-src 'sha256-${digest}'`);
    const csrfCookie = cookieNamed(page, 'forum_csrf');
    expect(csrfCookie).to.match(/; path=\/; samesite=lax; httponly$/i);
    expect(csrfCookie).to.not.match(/secure/i);

    const form = formTo(page.text, '/oauth/authorize');
    expect(form.fields).to.include({ step: 'sign-in', client_id: app.client_id, state: query.state, redirect_uri: REDIRECT });
    expect(form.fields.csrf_token).to.have.length(43);
    const signedIn = await submit(browser, form, { login: 'alice', password: PASSWORD }).expect(303);
    expect(signedIn.headers.location).to.match(/^\/oauth\/authorize\?/);
    expect(locationQuery(`http://x${signedIn.headers.location}`)).to.deep.equal({ ...query, scope: 'all' });
    const sessionCookie = cookieNamed(signedIn, 'forum_session');
    expect(sessionCookie).to.match(/; path=\/; expires=[^;]+; samesite=lax; httponly$/i);
    expect(sessionCookie).to.not.include(PASSWORD);

    const consent = await browser.get(signedIn.headers.location!).expect(200);
    expect(consent.text).to.include('Client app').and.include('alice');
    expect(consent.headers['content-security-policy']).to.include("form-action 'self' http://client.test");
    const approved = await press(browser, consent, 'approve').expect(302).expect('Cache-Control', 'no-store');
    const location = new URL(approved.headers.location!);
    expect(`${location.origin}${location.pathname}`).to.equal(REDIRECT);
    const received = locationQuery(approved.headers.location!);
    expect(received).to.have.all.keys('code', 'state');
    expect(received.state).to.equal(query.state);
    const [stored] = await testEnv().sql<Record<string, unknown>>('select * from oauth_codes');
    expect(JSON.stringify(stored)).to.not.include(received.code!);

    // A public client: its client_id and the verifier, no secret.
    const token = await redeem(received.code!).expect(200).expect('Cache-Control', 'no-store');
    expect(token.body).to.include({ token_type: 'Bearer', scope: 'all' });
    expect(token.body.refresh_token).to.be.a('string');
    expect((await hello(token.body.access_token).expect(200)).body.user.login).to.equal('alice');

    // It refreshes with its client_id alone.
    const refreshed = await exchange({
      grant_type: 'refresh_token',
      refresh_token: token.body.refresh_token,
      client_id: app.client_id,
    }).expect(200);
    await hello(refreshed.body.access_token).expect(200);
    await hello(token.body.access_token).expect(401);

    // Signed in already: the next request from this browser goes straight to consent.
    const again = await browser
      .get('/oauth/authorize')
      .query({ ...query, state: 'second' })
      .expect(200);
    expect(formTo(again.text, '/oauth/authorize').buttons.map((button) => button.value)).to.deep.equal(['deny', 'approve']);
  });

  it('refuses a wrong verifier, and the code is spent: the right verifier afterwards fails too', async () => {
    const { code } = await codeFor();
    const wrong = await redeem(code!, pkcePair().verifier).expect(400);
    expect(wrong.body.error).to.equal('invalid_grant');
    expect((await redeem(code!).expect(400)).body.error).to.equal('invalid_grant');
    // Without a verifier a public client lacks a required parameter (issue 31: was 401 invalid_client).
    expect((await redeem(code!, '').expect(400)).body.error).to.equal('invalid_request');
  });

  it('a public client that sends no code_verifier: 400 invalid_request, and the code is not spent', async () => {
    const { code } = await codeFor();
    const withoutVerifier = { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT, client_id: app.client_id };
    for (const body of [withoutVerifier, { ...withoutVerifier, code_verifier: '' }]) {
      const res = await exchange(body).expect(400).expect('Cache-Control', 'no-store');
      expect(res.body).to.deep.equal({ error: 'invalid_request', error_description: 'Missing parameter: `code_verifier`' });
      expect(res.headers['www-authenticate']).to.equal(undefined);
    }
    // Nothing was used up: the code and its verifier still buy a token.
    await hello((await redeem(code!).expect(200)).body.access_token).expect(200);
    // A confidential client without its secret is still a client that did not authenticate; so is an unknown one.
    const confidential = await registerApp(['Server app', '--redirect-uri', REDIRECT]);
    const unauthenticated = await exchange({ ...withoutVerifier, client_id: confidential.client_id }).expect(401);
    expect(unauthenticated.body.error).to.equal('invalid_client');
    expect((await exchange({ ...withoutVerifier, client_id: 'nobody' }).expect(401)).body.error).to.equal('invalid_client');
  });

  it('a redirect_uri other than the authorization request’s is invalid_grant (RFC 6749 §5.2); an absent one invalid_request', async () => {
    for (const other of ['http://127.0.0.1:8765/cb', `${REDIRECT}/`, 'not a uri']) {
      const { code } = await codeFor();
      const res = await redeem(code!, pkce.verifier, { redirect_uri: other }).expect(400);
      expect(res.body.error, other).to.equal('invalid_grant');
    }
    const { code } = await codeFor();
    const absent = await exchange({
      grant_type: 'authorization_code',
      code: code!,
      code_verifier: pkce.verifier,
      client_id: app.client_id,
    }).expect(400);
    expect(absent.body.error).to.equal('invalid_request');
  });

  it('a code used twice: the second exchange fails and revokes what the first one gave', async () => {
    const { code } = await codeFor();
    const first = await redeem(code!).expect(200);
    await hello(first.body.access_token).expect(200);
    expect((await redeem(code!).expect(400)).body.error).to.equal('invalid_grant');
    await hello(first.body.access_token).expect(401);
    const refresh = await exchange({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: app.client_id,
    });
    expect(refresh.status).to.equal(400);
    expect(refresh.body.error).to.equal('invalid_grant');
  });

  it('two exchanges of one code at once: exactly one gets a token', async () => {
    const { code } = await codeFor();
    const results = await Promise.all([redeem(code!), redeem(code!), redeem(code!)]);
    expect(results.map((res) => res.status).sort()).to.deep.equal([200, 400, 400]);
  });

  it('refuses an expired code, a code for another redirect URI, and a code of another client', async () => {
    const expired = (await codeFor()).code!;
    await testEnv().sql("update oauth_codes set expires_at = now() - interval '1 second'");
    expect((await redeem(expired).expect(400)).body.error).to.equal('invalid_grant');

    const elsewhere = (await codeFor()).code!;
    const res = await redeem(elsewhere, pkce.verifier, { redirect_uri: 'http://127.0.0.1:8765/cb' });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_grant');

    const other = await registerApp(['Other', '--public', '--redirect-uri', REDIRECT]);
    const stolen = (await codeFor()).code!;
    const theft = await redeem(stolen, pkce.verifier, { client_id: other.client_id }).expect(400);
    expect(theft.body.error).to.equal('invalid_grant');
  });

  it('never redirects to an unregistered redirect URI or for an unknown client: an error page instead', async () => {
    const browser = newBrowser();
    for (const bad of [
      { redirect_uri: 'http://evil.test/callback' },
      { redirect_uri: `${REDIRECT}/more` },
      { redirect_uri: undefined },
      { client_id: 'nobody' },
      { client_id: 'nul\u0000byte' },
    ]) {
      const request = { ...query, ...bad };
      const res = await browser
        .get('/oauth/authorize')
        .query(request)
        .expect(400)
        .expect('Content-Type', /text\/html/);
      expect(res.headers.location).to.equal(undefined);
      expect(res.text).to.include('This sign-in link cannot be used');
      expect(res.text).to.not.include('evil.test');
    }
    // The forms are checked the same way: a tampered redirect_uri never gets a code.
    const consent = await consentPage(browser);
    const form = formTo(consent.text, '/oauth/authorize');
    const tampered = await submit(browser, form, { step: 'approve', redirect_uri: 'http://evil.test/callback' }).expect(400);
    expect(tampered.headers.location).to.equal(undefined);
    expect(await codeCount()).to.equal(0);
  });

  it('protects the forms against CSRF: a missing, wrong or foreign token is 403 and changes nothing', async () => {
    const browser = newBrowser();
    const form = await signInForm(browser);
    const credentials = { login: 'alice', password: PASSWORD };
    for (const csrf_token of ['', 'A'.repeat(43)]) {
      const res = await submit(browser, form, { ...credentials, csrf_token })
        .expect(403)
        .expect('Content-Type', /text\/html/);
      expect(res.text).to.include('This form has expired');
      expect(cookieNamed(res, 'forum_session')).to.equal(undefined);
    }
    // Another site's page cannot read the cookie: a browser without it is refused even with a well-formed token.
    await submit(newBrowser(), form, credentials).expect(403);

    // Signed in, the consent form's token is bound to the session: the sign-in token does not do.
    const consent = await consentPage(browser);
    const consentForm = formTo(consent.text, '/oauth/authorize');
    await submit(browser, consentForm, { step: 'approve', csrf_token: form.fields.csrf_token! }).expect(403);
    await submit(browser, consentForm, { step: 'approve', csrf_token: '' }).expect(403);
    const withoutToken = { ...consentForm.fields };
    delete withoutToken.csrf_token;
    await browser
      .post('/oauth/authorize')
      .type('form')
      .send({ ...withoutToken, step: 'approve' })
      .expect(403);
    expect(await codeCount()).to.equal(0);
  });

  it('sends a denial back as error=access_denied with the state, and issues no code', async () => {
    const browser = newBrowser();
    const denied = await press(browser, await consentPage(browser), 'deny').expect(302);
    const received = locationQuery(denied.headers.location!);
    expect(received).to.include({ error: 'access_denied', state: query.state });
    expect(received).to.not.have.property('code');
    expect(await codeCount()).to.equal(0);
  });

  it('sends the other faults of a request back to the application, with the state when it is usable', async () => {
    const cases: [Record<string, string | undefined>, string, boolean][] = [
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request', true],
      [{ code_challenge_method: 'plain', code_challenge: pkce.verifier }, 'invalid_request', true],
      [{ code_challenge: 'too-short' }, 'invalid_request', true],
      [{ state: undefined }, 'invalid_request', false],
      [{ state: 'x'.repeat(501) }, 'invalid_request', false],
      [{ response_type: 'token' }, 'unsupported_response_type', true],
      [{ scope: 'write' }, 'invalid_scope', true],
    ];
    for (const [change, error, withState] of cases) {
      const res = await newBrowser()
        .get('/oauth/authorize')
        .query({ ...query, ...change })
        .expect(302);
      const received = locationQuery(res.headers.location!);
      expect(res.headers.location!.startsWith(`${REDIRECT}?`), JSON.stringify(change)).to.equal(true);
      expect(received.error, JSON.stringify(change)).to.equal(error);
      expect(received.error_description).to.be.a('string');
      if (withState) expect(received.state).to.equal(query.state);
      else expect(received).to.not.have.property('state');
    }
  });

  it('keeps the query of a registered redirect URI, and sends the code to the one the request named', async () => {
    const withQuery = await registerApp(['Tenant app', '--public', '--redirect-uri', 'https://client.test/cb?tenant=7']);
    const received = await codeFor({ ...query, client_id: withQuery.client_id, redirect_uri: 'https://client.test/cb?tenant=7' });
    expect(received).to.have.all.keys('tenant', 'code', 'state');
    expect(received.tenant).to.equal('7');

    const second = await newBrowser()
      .get('/oauth/authorize')
      .query({ ...query, redirect_uri: 'http://127.0.0.1:8765/cb' })
      .expect(200);
    expect(formTo(second.text, '/oauth/authorize').fields.redirect_uri).to.equal('http://127.0.0.1:8765/cb');
  });

  it('makes a confidential client authenticate to exchange a code; a public client may not use the password grant', async () => {
    const confidential = await registerApp(['Server app', '--redirect-uri', REDIRECT]);
    expect(confidential.client_secret).to.be.a('string');
    expect(app.client_secret).to.equal(null);
    const { code } = await codeFor({ ...query, client_id: confidential.client_id });
    const withoutSecret = await redeem(code!, pkce.verifier, { client_id: confidential.client_id }).expect(401);
    expect(withoutSecret.body.error).to.equal('invalid_client');
    const { code: second } = await codeFor({ ...query, client_id: confidential.client_id });
    await redeem(second!, pkce.verifier, {
      client_id: confidential.client_id,
      client_secret: confidential.client_secret!,
    }).expect(200);

    // Without a secret there is no client authentication, which the password grant requires.
    const password = await exchange({ grant_type: 'password', username: 'alice', password: PASSWORD, client_id: app.client_id });
    expect(password.status).to.equal(401);
    expect(password.body.error).to.equal('invalid_client');
  });

  it('a read token reads and may not write (403 naming the scope); the consent page says so', async () => {
    const browser = newBrowser();
    const consent = await consentPage(browser, { ...query, scope: 'read' });
    expect(consent.text).to.match(/read/i);
    const received = locationQuery((await press(browser, consent, 'approve').expect(302)).headers.location!);
    const token = await redeem(received.code!).expect(200);
    expect(token.body.scope).to.equal('read');
    const headers = bearer(token.body.access_token);

    await api().get('/api/v3/hello').set(headers).expect(200);
    await api().get('/api/v3/topics').set(headers).expect(200);
    const refused = await api().post('/api/v3/topics').set(headers).send({ title: 't', body: 'b', node_id: 1 }).expect(403);
    expect(refused.body.error).to.equal('AccessDenied');
    expect(refused.body.message).to.match(/read scope/);
    await api().delete('/api/v3/topics/1').set(headers).expect(403);
    await api().post('/api/v3/devices').set(headers).send({ platform: 'ios', token: 'abc' }).expect(403);

    const info = await api().get('/oauth/token/info').set(headers).expect(200);
    expect(info.body.scope).to.deep.equal(['read']);
    // Refreshing keeps the scope; it cannot widen it.
    const widened = await exchange({
      grant_type: 'refresh_token',
      refresh_token: token.body.refresh_token,
      client_id: app.client_id,
      scope: 'all',
    });
    expect(widened.status).to.equal(400);
    expect(widened.body.error).to.equal('invalid_scope');
    const refreshed = await exchange({
      grant_type: 'refresh_token',
      refresh_token: token.body.refresh_token,
      client_id: app.client_id,
    }).expect(200);
    expect(refreshed.body.scope).to.equal('read');
  });

  it('shows the sign-in form again on a wrong password, and throttles repeated failures (429 page, Retry-After)', async () => {
    const browser = newBrowser();
    const form = await signInForm(browser);
    const wrong = await submit(browser, form, { login: 'alice', password: 'wrong password' }).expect(200);
    expect(wrong.text).to.include('Wrong login or password.').and.include('value="alice"');
    expect(cookieNamed(wrong, 'forum_session')).to.equal(undefined);
    // The throttle of the test environment allows three failures per account in its window.
    await submit(browser, form, { login: 'alice', password: 'wrong again' }).expect(200);
    await submit(browser, form, { login: 'alice', password: 'and again' }).expect(200);
    const throttled = await submit(browser, form, { login: 'alice', password: PASSWORD })
      .expect(429)
      .expect('Content-Type', /text\/html/);
    expect(Number(throttled.headers['retry-after'])).to.be.greaterThan(0);
    expect(throttled.text).to.include('Too many failed attempts');
    // The password grant counts the same failures.
    const confidential = await registerApp(['Pw']);
    const grant = await exchange({
      grant_type: 'password',
      username: 'alice',
      password: PASSWORD,
      client_id: confidential.client_id,
      client_secret: confidential.client_secret!,
    });
    expect(grant.status).to.equal(429);
  });

  it('escapes what it shows: an application name with markup is text', async () => {
    const hostile = await registerApp(['<script>alert(1)</script> & "Co"', '--public', '--redirect-uri', REDIRECT]);
    const browser = newBrowser();
    const page = await browser
      .get('/oauth/authorize')
      .query({ ...query, client_id: hostile.client_id })
      .expect(200);
    expect(page.text).to.not.include('<script>alert(1)</script>');
    expect(page.text).to.include('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    const signedIn = await submit(browser, formTo(page.text, '/oauth/authorize'), { login: 'alice', password: PASSWORD }).expect(
      303,
    );
    const consent = await browser.get(signedIn.headers.location!).expect(200);
    expect(consent.text).to.not.include('<script>');
  });

  it('signs out: the session ends, and the page asks to sign in again', async () => {
    const browser = newBrowser();
    const consent = await consentPage(browser);
    const signOut = formTo(consent.text, '/oauth/sign-out');
    await browser
      .post('/oauth/sign-out')
      .type('form')
      .send({ ...signOut.fields, csrf_token: 'wrong' })
      .expect(403);
    const done = await submit(browser, signOut).expect(303);
    expect(cookieNamed(done, 'forum_session')).to.match(/^forum_session=;/);
    expect((await testEnv().sql('select * from web_sessions')).length).to.equal(0);
    const page = await browser.get(done.headers.location!).expect(200);
    expect(formTo(page.text, '/oauth/authorize').fields.step).to.equal('sign-in');
  });

  it('marks its cookies Secure when PUBLIC_URL is https', async () => {
    const secureApp = createApp({ ...appDependencies(), publicUrl: 'https://forum.test' });
    const page = await checkedApi(secureApp).get('/oauth/authorize').query(query).expect(200);
    expect(cookieNamed(page, 'forum_csrf')).to.match(/; secure; httponly$/i);
  });

  it('introspects for confidential clients (RFC 7662) and describes the caller’s token (doorkeeper)', async () => {
    const server = await registerApp(['Resource server']);
    const basic = `Basic ${Buffer.from(`${server.client_id}:${server.client_secret}`).toString('base64')}`;
    const { code } = await codeFor();
    const token = (await redeem(code!).expect(200)).body;

    const introspect = (body: Record<string, string>, authorization?: string) => {
      const request = api().post('/oauth/introspect').type('form');
      if (authorization) request.set('Authorization', authorization);
      return request.send(body);
    };
    const live = await introspect({ token: token.access_token }, basic).expect(200).expect('Cache-Control', 'no-store');
    expect(live.body).to.include({
      active: true,
      scope: 'all',
      client_id: app.client_id,
      username: 'alice',
      token_type: 'Bearer',
    });
    expect(live.body.exp - live.body.iat).to.equal(86_400);
    const refresh = await introspect({
      token: token.refresh_token,
      client_id: server.client_id,
      client_secret: server.client_secret!,
    }).expect(200);
    expect(refresh.body).to.include({ active: true, token_type: 'refresh_token' });
    expect((await introspect({ token: 'not a token' }, basic).expect(200)).body).to.deep.equal({ active: false });

    // Without client authentication, or as a public client (no secret to prove), it reveals nothing.
    for (const denied of [
      await introspect({ token: token.access_token }),
      await introspect({ token: token.access_token, client_id: app.client_id }),
      await introspect({ token: token.access_token }, `Basic ${Buffer.from(`${server.client_id}:wrong`).toString('base64')}`),
    ]) {
      expect(denied.status).to.equal(401);
      expect(denied.body.error).to.equal('invalid_client');
      expect(JSON.stringify(denied.body)).to.not.include('alice');
    }

    const info = await api().get('/oauth/token/info').set(bearer(token.access_token)).expect(200);
    const alice = (await testEnv().sql<{ id: number }>("select id from users where login = 'alice'"))[0]!;
    expect(info.body).to.deep.include({ resource_owner_id: alice.id, scope: ['all'], application: { uid: app.client_id } });
    expect(info.body.expires_in).to.be.within(86_390, 86_400);

    await api().post('/oauth/revoke').type('form').send({ token: token.access_token }).expect(200);
    expect((await introspect({ token: token.access_token }, basic).expect(200)).body).to.deep.equal({ active: false });
    for (const headers of [bearer(token.access_token), bearer('nonsense'), {}]) {
      const res = await api().get('/oauth/token/info').set(headers).expect(401);
      expect(res.body.error).to.equal('invalid_token');
      expect(res.headers['www-authenticate']).to.include('invalid_token');
    }
  });

  it('forumctl tokens list and revoke-all: an administrator ends every session of an account', async () => {
    const browser = newBrowser();
    const received = locationQuery((await press(browser, await consentPage(browser), 'approve').expect(302)).headers.location!);
    const token = (await redeem(received.code!).expect(200)).body;
    const issued = await forumctl(['tokens', 'issue', 'alice', '--json']);
    expect(issued.code).to.equal(0);

    const listed = await forumctl(['tokens', 'list', 'alice', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    const rows = listed.json<{ tokens: { app: string | null; scope: string }[] }>().tokens;
    expect(rows.map((row) => row.app).sort()).to.deep.equal(['Client app', null].sort());
    expect(listed.stdout).to.not.include(token.access_token);

    await makeUser('mallory');
    expect((await forumctl(['tokens', 'list', 'alice', '--as', 'mallory'])).code).to.equal(3);
    expect((await forumctl(['tokens', 'revoke-all', 'alice', '--as', 'mallory', '--yes'])).code).to.equal(3);
    expect((await forumctl(['tokens', 'list', 'ghost'])).code).to.equal(4);
    await hello(token.access_token).expect(200);

    const ended = await forumctl(['tokens', 'revoke-all', 'alice', '--yes', '--json']);
    expect(ended.code, ended.stderr).to.equal(0);
    expect(ended.json()).to.deep.equal({ ok: 1, revoked: 2, sessions: 1 });
    await hello(token.access_token).expect(401);
    await hello(issued.json<{ access_token: string }>().access_token).expect(401);
    const refresh = await exchange({ grant_type: 'refresh_token', refresh_token: token.refresh_token, client_id: app.client_id });
    expect(refresh.status).to.equal(400);
    // The browser's session ended too: the page asks to sign in again.
    const page = await browser.get('/oauth/authorize').query(query).expect(200);
    expect(formTo(page.text, '/oauth/authorize').fields.step).to.equal('sign-in');
    expect((await forumctl(['tokens', 'list', 'alice', '--json'])).json()).to.deep.equal({ tokens: [] });
  });

  it('forumctl apps create: a public app needs a redirect URI; redirect URIs must be absolute, without a fragment', async () => {
    for (const args of [
      ['Web', '--public'],
      ['Web', '--public', '--redirect-uri', '/relative'],
      ['Web', '--redirect-uri', 'https://client.test/cb#fragment'],
      ['Web', '--redirect-uri', 'javascript:alert(1)'],
    ]) {
      const res = await forumctl(['apps', 'create', ...args]);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stderr).to.match(/redirect/i);
    }
    const listed = await forumctl(['apps', 'list', '--json']);
    expect(listed.stdout).to.not.include(app.client_secret ?? 'no secret to leak');
  });
});
