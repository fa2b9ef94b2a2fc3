import { expect } from 'chai';
import type Koa from 'koa';
import type supertest from 'supertest';
import { MailTokenKeys } from '../../src/application/ports.js';
import { checkedApi } from '../support/openapi.js';
import { api } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';
import { type PageForm, formTo, formsOf, pkcePair } from '../support/oauth-flow.js';

/**
 * The pages of joining (contract §16b), driven as a browser drives them: a cookie jar, the pages' forms with
 * their hidden fields, the token of a mailed link derived from its row as the mail writer derives it.
 */

const PASSWORD = 'correct horse battery';

type Browser = ReturnType<typeof checkedApi>;
const newBrowser = (app: Koa = testEnv().app): Browser => checkedApi(app, { cookies: true });

interface TokenRow {
  id: string;
  purpose: string;
  used_at: Date | null;
}

async function tokenRows(login: string, purpose?: string): Promise<TokenRow[]> {
  return testEnv().sql<TokenRow>(
    `select t.id, t.purpose, t.used_at from account_tokens t join users u on u.id = t.user_id
     where u.login = $1 and ($2::text is null or t.purpose = $2) order by t.created_at, t.id`,
    [login, purpose ?? null],
  );
}

/** The token of the last link of this purpose mailed to the account. */
async function linkToken(login: string, purpose: string): Promise<string> {
  const rows = await tokenRows(login, purpose);
  expect(rows, `a ${purpose} token for ${login}`).to.not.be.empty;
  return testEnv().container.get<MailTokenKeys>(MailTokenKeys).tokenFor(rows.at(-1)!.id);
}

async function userRow(login: string): Promise<{ id: number; state: string; locale: string } | undefined> {
  const [row] = await testEnv().sql<{ id: number; state: string; locale: string }>(
    'select id, state, locale from users where login = $1',
    [login],
  );
  return row;
}

function setCookies(res: supertest.Response): string[] {
  const header = res.headers['set-cookie'] as string[] | string | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}
const cookieNamed = (res: supertest.Response, name: string) => setCookies(res).find((line) => line.startsWith(`${name}=`));

/** The form posting to this path (whatever its query), as a browser would send it with these fields typed. */
function formFor(html: string, path: string): PageForm {
  const form = formsOf(html).find((candidate) => candidate.action.split('?')[0] === path);
  if (!form) throw new Error(`no form posting to ${path} on the page:\n${html.slice(0, 3000)}`);
  return form;
}

function submit(browser: Browser, form: PageForm, typed: Record<string, string> = {}): supertest.Test {
  return browser
    .post(form.action)
    .type('form')
    .send({ ...form.fields, ...typed });
}

const alertOf = (html: string) => /<p class="alert" role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1]?.trim();

/**
 * Follows a successful sign-up as a browser does: its POST answers 303 to the page that says where the mail went
 * (a reload shows that page, and posts nothing again); returns that page.
 */
async function followSent(browser: Browser, posted: supertest.Response, lang = 'en'): Promise<supertest.Response> {
  expect(posted.status, posted.text.slice(0, 500)).to.equal(303);
  expect(posted.headers.location).to.equal(`/account/sign-up/sent?lang=${lang}`);
  return browser.get(posted.headers.location!).expect(200);
}

/** Opens the sign-up page and sends its form with these fields typed; expects this status (200: after its 303). */
async function signUp(browser: Browser, typed: Record<string, string>, status: number): Promise<supertest.Response> {
  const page = await browser.get('/account/sign-up').expect(200);
  const posted = await submit(browser, formFor(page.text, '/account/sign-up'), typed);
  if (status === 200) return followSent(browser, posted);
  expect(posted.status).to.equal(status);
  return posted;
}

const alice = { login: 'alice', email: 'alice@example.com', password: PASSWORD, name: 'Alice' };

describe('account pages: joining in a browser (contract §16b)', () => {
  it('serves the sign-up page as the /oauth pages are served: strict CSP, no caching, a CSRF cookie on /', async () => {
    const page = await newBrowser()
      .get('/account/sign-up')
      .expect(200)
      .expect('Content-Type', /text\/html; charset=utf-8/)
      .expect('Cache-Control', 'no-store')
      .expect('X-Frame-Options', 'DENY');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).to.include("default-src 'none'").and.include("form-action 'self'").and.include("style-src 'sha256-");
    expect(csp).to.not.include('script');
    expect(page.text).to.include('<html lang="en">').and.not.include('<script');
    expect(cookieNamed(page, 'forum_csrf')).to.match(/; path=\/; samesite=lax; httponly$/i);
    const form = formFor(page.text, '/account/sign-up');
    expect(form.fields.csrf_token).to.have.length(43);
    expect(page.text).to.include('name="login"').and.include('name="email"').and.include('name="password"');
    expect(page.text).to.include('name="name"').and.not.include('name="invite"');
    // The honeypot: a plain field, off screen, that people leave empty.
    expect(page.text).to.match(/<div class="trap" aria-hidden="true">[\s\S]*name="website"[\s\S]*tabindex="-1"/);
    // Someone who has an account already finds the way to sign in.
    expect(page.text).to.match(/Already have an account\? <a href="\/account\/sign-in\?lang=en">Sign in<\/a>/);
  });

  it('signs up with the CSRF token (unverified, a verification link mailed) and refuses without it', async () => {
    const browser = newBrowser();
    const page = await browser.get('/account/sign-up').expect(200);
    const form = formFor(page.text, '/account/sign-up');

    const forged = await submit(browser, form, { ...alice, csrf_token: 'x'.repeat(43) }).expect(403);
    expect(forged.text).to.include('This form has expired');
    await newBrowser().post('/account/sign-up').type('form').send(alice).expect(403);
    expect(await userRow('alice')).to.equal(undefined);

    const posted = await submit(browser, form, alice);
    expect(posted.text).to.not.include(PASSWORD);
    expect(cookieNamed(posted, 'forum_sent_to')).to.match(
      /; path=\/account\/sign-up\/sent; expires=[^;]+; samesite=lax; httponly$/i,
    );
    const sent = await followSent(browser, posted);
    expect(sent.text).to.include('Check your mail').and.include('alice@example.com').and.not.include(PASSWORD);
    expect(await userRow('alice')).to.include({ state: 'unverified', locale: 'en' });
    expect((await tokenRows('alice')).map((row) => row.purpose)).to.deep.equal(['verify']);

    // A reload shows the page again and makes nothing more; another browser is told the mail went to the address given.
    const reloaded = await browser.get('/account/sign-up/sent?lang=en').expect(200);
    expect(reloaded.text).to.include('alice@example.com');
    expect((await tokenRows('alice')).map((row) => row.purpose)).to.deep.equal(['verify']);
    const elsewhere = await newBrowser().get('/account/sign-up/sent').expect(200);
    expect(elsewhere.text).to.include('We sent a link to the address you gave').and.not.include('alice@example.com');
    expect(formFor(elsewhere.text, '/account/verification').fields).to.not.have.property('login');

    // The page offers to send the mail again: with its token, the same page for any account.
    const resend = formFor(sent.text, '/account/verification');
    expect(resend.fields.login).to.equal('alice@example.com');
    await submit(browser, resend, { csrf_token: 'wrong' }).expect(403);
    const resent = await submit(browser, resend).expect(200);
    expect(resent.text).to.include('a new link is on its way');
  });

  it('shows the form again with the reason and what was typed, never the password', async () => {
    const browser = newBrowser();
    const weak = await signUp(browser, { ...alice, password: 'password' }, 400);
    expect(alertOf(weak.text)).to.match(/most common passwords/);
    expect(weak.text).to.include('value="alice"').and.include('value="alice@example.com"').and.include('value="Alice"');
    expect(weak.text).to.not.include('value="password"');
    const missing = await submit(browser, formFor(weak.text, '/account/sign-up'), {
      login: 'bob',
      email: '',
      password: PASSWORD,
    });
    expect(missing.status).to.equal(400);
    expect(alertOf(missing.text)).to.include('Fill in');
    expect(await userRow('alice')).to.equal(undefined);

    await signUp(browser, alice, 200);
    const taken = await signUp(newBrowser(), { ...alice, email: 'other@example.com' }, 400);
    expect(alertOf(taken.text)).to.include('Login has already been taken');
  });

  it('answers a filled honeypot like a success, and makes nothing', async () => {
    const res = await signUp(newBrowser(), { ...alice, website: 'http://spam.example' }, 200);
    expect(res.text).to.include('Check your mail').and.include('alice@example.com');
    expect(await userRow('alice')).to.equal(undefined);
    expect(await testEnv().sql('select 1 from account_tokens')).to.have.length(0);
  });

  it('GET /account/verify spends nothing; POST with the CSRF token confirms, signs the browser in, and spends it', async () => {
    await signUp(newBrowser(), alice, 200);
    const token = await linkToken('alice', 'verify');
    const browser = newBrowser();
    // A mail scanner, then the person: opening the link twice spends nothing.
    await api().get('/account/verify').query({ token }).expect(200);
    const page = await browser.get('/account/verify').query({ token }).expect(200);
    expect(page.text).to.include('alice').and.include('Confirm');
    expect((await tokenRows('alice'))[0]!.used_at).to.equal(null);
    expect((await userRow('alice'))!.state).to.equal('unverified');

    const form = formFor(page.text, '/account/verify');
    expect(form.fields.token).to.equal(token);
    await submit(browser, form, { csrf_token: 'forged' }).expect(403);
    await newBrowser().post('/account/verify').type('form').send({ token }).expect(403);
    expect((await tokenRows('alice'))[0]!.used_at).to.equal(null);

    const confirmed = await submit(browser, form).expect(200);
    expect(confirmed.text).to.include('Your account is active').and.include('signed in as alice');
    // The way on is the forum's pages (contract §21a), which know the browser now.
    expect(confirmed.text).to.include('<a href="/?lang=en">Go to the forum</a>');
    const front = await browser.get('/').expect(200);
    expect(front.text).to.include('href="/alice"');
    expect(front.headers['cache-control'], 'a signed-in page is never shared').to.equal('private, no-cache');
    expect(cookieNamed(confirmed, 'forum_session')).to.match(/; path=\/; expires=[^;]+; samesite=lax; httponly$/i);
    expect((await userRow('alice'))!.state).to.equal('active');
    expect((await tokenRows('alice'))[0]!.used_at).to.not.equal(null);

    // Used: pressed again, or opened again, the link says the address is confirmed already, and links on.
    const again = await submit(browser, form).expect(200);
    expect(again.text).to.include('Address confirmed already').and.include('alice').and.not.include('cannot be used');
    expect(again.text).to.include('href="/account/settings?lang=en"');
    const reopened = await newBrowser().get('/account/verify').query({ token }).expect(200);
    expect(reopened.text).to.include('is confirmed already').and.include('href="/account/sign-in?lang=en"');
    expect(reopened.text).to.not.include('name="token"');
    // A link that cannot be used says so, and offers to send a new one.
    const unknown = await browser
      .get('/account/verify')
      .query({ token: 'A'.repeat(43) })
      .expect(404);
    expect(unknown.text).to.include('This link cannot be used');
    expect(formFor(unknown.text, '/account/verification').buttons).to.have.length(1);
    await browser.get('/account/verify').expect(404);
  });

  it('expires, on /oauth paths, a session cookie an earlier version left at path /oauth (it would shadow the new one)', async () => {
    const res = await api().post('/oauth/sign-out').set('Cookie', 'forum_session=from-before').type('form').send({}).expect(200);
    const sessions = setCookies(res).filter((line) => line.startsWith('forum_session='));
    expect(sessions).to.have.length(2);
    expect(sessions[0]).to.match(/^forum_session=; path=\/; expires=Thu, 01 Jan 1970/);
    expect(sessions[1]).to.match(/^forum_session=; path=\/oauth; expires=Thu, 01 Jan 1970/);
  });

  it('refuses a reset token at the verify page, and a verify token at the reset page', async () => {
    await signUp(newBrowser(), alice, 200);
    const verify = await linkToken('alice', 'verify');
    await newBrowser().get('/account/password/reset').query({ token: verify }).expect(404);
    await forumctl(['users', 'verify', 'alice']);
    const browser = newBrowser();
    const forgot = await browser.get('/account/password/forgot').expect(200);
    await submit(browser, formFor(forgot.text, '/account/password/forgot'), { login: 'alice' }).expect(200);
    await newBrowser()
      .get('/account/verify')
      .query({ token: await linkToken('alice', 'reset') })
      .expect(404);
  });

  it('leaves an account waiting for approval unsigned-in (REGISTRATION=approval)', async () => {
    const { app } = configuredWith({ registration: 'approval' });
    await signUp(newBrowser(app), alice, 200);
    const browser = newBrowser(app);
    const page = await browser.get('/account/verify').query({ token: await linkToken('alice', 'verify') });
    const confirmed = await submit(browser, formFor(page.text, '/account/verify')).expect(200);
    expect(confirmed.text).to.include('waits for an administrator');
    expect(cookieNamed(confirmed, 'forum_session')).to.equal(undefined);
    expect((await userRow('alice'))!.state).to.equal('pending');
  });

  it('closed registration: the page says so (403); invite mode asks for the code, filled from ?invite=', async () => {
    const closed = configuredWith({ registration: 'closed' }).app;
    const page = await newBrowser(closed).get('/account/sign-up').expect(403);
    expect(page.text).to.include('Sign-up is closed');
    await newBrowser(closed).post('/account/sign-up').type('form').send(alice).expect(403);

    const { app } = configuredWith({ registration: 'invite' });
    const invited = await newBrowser(app).get('/account/sign-up?invite=abc%22def').expect(200);
    expect(invited.text).to.include('name="invite"').and.include('value="abc&quot;def"');
    const browser = newBrowser(app);
    const refused = await signUp(browser, { ...alice, invite: 'nope' }, 403);
    expect(alertOf(refused.text)).to.include('invite code is not valid');
    expect(refused.text).to.include('value="nope"');
    expect(await userRow('alice')).to.equal(undefined);

    const created = await forumctl(['invites', 'create', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const link = new URL(created.json<{ link: string }>().link);
    const fromLink = await newBrowser(app).get(`${link.pathname}${link.search}`).expect(200);
    const code = formFor(fromLink.text, '/account/sign-up');
    expect(fromLink.text).to.include(`value="${link.searchParams.get('invite')}"`);
    await submit(newBrowser(app), code, { ...alice, invite: link.searchParams.get('invite')! }).expect(403); // another browser's CSRF
    await signUp(browser, { ...alice, invite: link.searchParams.get('invite')! }, 200);
    expect(await userRow('alice')).to.include({ state: 'unverified' });
  });

  it('speaks Simplified Chinese by Accept-Language, and by ?lang= over it, through the forms', async () => {
    const browser = newBrowser();
    const zh = await browser.get('/account/sign-up').set('Accept-Language', 'zh-CN,zh;q=0.9,en;q=0.8').expect(200);
    expect(zh.text).to.include('<html lang="zh-CN">').and.include('注册账户').and.include('?lang=en');
    const form = formFor(zh.text, '/account/sign-up');
    expect(form.action).to.equal('/account/sign-up?lang=zh-CN');
    const weak = await submit(browser, form, { ...alice, password: '12345678' }).expect(400);
    expect(weak.text).to.include('<html lang="zh-CN">');
    expect(alertOf(weak.text)).to.include('最常见的密码');

    const chosen = await browser.get('/account/password/forgot?lang=zh-CN').set('Accept-Language', 'en').expect(200);
    expect(chosen.text).to.include('<html lang="zh-CN">').and.include('忘记密码');
    const sent = await submit(browser, formFor(chosen.text, '/account/password/forgot'), { login: 'nobody' })
      .set('Accept-Language', 'en')
      .expect(200);
    expect(sent.text).to.include('请查收邮件');

    const english = await browser.get('/account/sign-up?lang=en').set('Accept-Language', 'zh-CN').expect(200);
    expect(english.text).to.include('<html lang="en">').and.include('Create an account').and.include('简体中文');

    // The account's language is the page's, and so is the page after signing up.
    const signedUp = await followSent(browser, await submit(browser, formFor(zh.text, '/account/sign-up'), alice), 'zh-CN');
    expect(signedUp.text).to.include('<html lang="zh-CN">').and.include('请查收邮件');
    expect((await userRow('alice'))!.locale).to.equal('zh-CN');
  });

  it('forgot → reset: the same answer for any login; a weak password keeps the link; success ends every other session', async () => {
    await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
    const client = (await forumctl(['apps', 'create', 'Client', '--json'])).json<{ client_id: string; client_secret: string }>();
    const grant = await api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', username: 'alice', password: PASSWORD, ...client })
      .expect(200);
    const oldToken = grant.body.access_token as string;

    const browser = newBrowser();
    const page = await browser.get('/account/password/forgot').expect(200);
    const form = formFor(page.text, '/account/password/forgot');
    await submit(browser, form, { login: 'alice', csrf_token: 'forged' }).expect(403);
    await newBrowser().post('/account/password/forgot').type('form').send({ login: 'alice' }).expect(403);
    expect(await tokenRows('alice', 'reset')).to.have.length(0);
    const unknown = await submit(browser, form, { login: 'nobody@example.com' }).expect(200);
    const known = await submit(browser, form, { login: 'ALICE@example.com' }).expect(200);
    expect(alertOf(known.text)).to.equal(undefined);
    const body = (res: supertest.Response) => /<main>[\s\S]*<\/main>/.exec(res.text)![0];
    expect(body(known)).to.equal(body(unknown));
    expect(await tokenRows('alice', 'reset')).to.have.length(1);

    const token = await linkToken('alice', 'reset');
    await api().get('/account/password/reset').query({ token }).expect(200); // a mail scanner: nothing spent
    const reset = await browser.get('/account/password/reset').query({ token }).expect(200);
    expect(reset.text).to.include('alice');
    const resetForm = formFor(reset.text, '/account/password/reset');
    await submit(browser, resetForm, {
      password: 'a new passphrase',
      password_confirmation: 'a new passphrase',
      csrf_token: 'x',
    }).expect(403);
    const differ = await submit(browser, resetForm, {
      password: 'a new passphrase',
      password_confirmation: 'another one',
    }).expect(400);
    expect(alertOf(differ.text)).to.include('differ');
    const weak = await submit(browser, resetForm, { password: 'alice', password_confirmation: 'alice' }).expect(400);
    expect(alertOf(weak.text)).to.include('too short');
    expect((await tokenRows('alice', 'reset'))[0]!.used_at).to.equal(null);

    const done = await submit(browser, formFor(weak.text, '/account/password/reset'), {
      password: 'a new passphrase',
      password_confirmation: 'a new passphrase',
    }).expect(200);
    expect(done.text).to.include('every other session of the account ended').and.include('signed in as alice');
    expect(cookieNamed(done, 'forum_session')).to.match(/; path=\/;/);
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${oldToken}`).expect(401);
    await submit(browser, resetForm, { password: 'a third passphrase', password_confirmation: 'a third passphrase' }).expect(404);
    await api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', username: 'alice', password: 'a new passphrase', ...client })
      .expect(200);
  });

  it('a reset link for an account without a password sets its first, saying so on each page (contract §25)', async () => {
    await forumctl(['users', 'create', 'gina', '--email', 'gina@example.com', '--password', PASSWORD]);
    await testEnv().sql("update users set password_hash = null where login = 'gina'");
    const browser = newBrowser();
    const forgot = await browser.get('/account/password/forgot').expect(200);
    await submit(browser, formFor(forgot.text, '/account/password/forgot'), { login: 'gina' }).expect(200);

    const token = await linkToken('gina', 'reset');
    const page = await browser.get('/account/password/reset').query({ token }).expect(200);
    expect(page.text).to.include('<h1>Choose a password</h1>').and.include('>Set password</button>');
    expect(page.text).to.not.include('Choose a new password');
    // No old password to be new against: its fields are the sign-up's words.
    expect(page.text).to.include('<label for="password">Password</label>').and.include('>Password again</label>');
    expect(page.text).to.not.include('New password');
    const zh = await browser.get('/account/password/reset').query({ token, lang: 'zh-CN' }).expect(200);
    expect(zh.text).to.include('<h1>设置密码</h1>');

    const done = await submit(browser, formFor(page.text, '/account/password/reset'), {
      password: 'a first passphrase',
      password_confirmation: 'a first passphrase',
    }).expect(200);
    expect(done.text).to.include('<h1>Password set</h1>').and.include('you may also sign in with gina and this password');
    const client = (await forumctl(['apps', 'create', 'Client', '--json'])).json<{ client_id: string; client_secret: string }>();
    await api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', username: 'gina', password: 'a first passphrase', ...client })
      .expect(200);
  });

  it('signs up from the sign-in page of /oauth/authorize and returns to that request once the address is confirmed', async () => {
    const redirect = 'http://client.test/callback';
    const registered = await forumctl(['apps', 'create', 'Client app', '--public', '--redirect-uri', redirect, '--json']);
    const query = {
      response_type: 'code',
      client_id: registered.json<{ client_id: string }>().client_id,
      redirect_uri: redirect,
      state: 'state & more',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    };
    const browser = newBrowser();
    const signIn = await browser.get('/oauth/authorize').query(query).expect(200);
    const links = [...signIn.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    const signUpLink = links.find((link) => link.startsWith('/account/sign-up?'))!;
    expect(links.some((link) => link.startsWith('/account/password/forgot?authorize='))).to.equal(true);

    const page = await browser.get(signUpLink).expect(200);
    const form = formFor(page.text, '/account/sign-up');
    expect(new URLSearchParams(form.fields.authorize)).to.satisfy(
      (kept: URLSearchParams) => kept.get('state') === 'state & more',
    );
    const sent = await submit(browser, form, alice).expect(303);
    expect(cookieNamed(sent, 'forum_return')).to.match(/; path=\/account; expires=[^;]+; samesite=lax; httponly$/i);

    const token = await linkToken('alice', 'verify');
    const verify = await browser.get('/account/verify').query({ token }).expect(200);
    const confirmed = await submit(browser, formFor(verify.text, '/account/verify')).expect(303);
    const location = confirmed.headers.location!;
    expect(location).to.match(/^\/oauth\/authorize\?/);
    expect(Object.fromEntries(new URL(location, 'http://x').searchParams)).to.deep.equal({ ...query, scope: 'all' });
    const consent = await browser.get(location).expect(200);
    expect(consent.text).to.include('Client app').and.include('alice');
    expect(formTo(consent.text, '/oauth/authorize').buttons.map((button) => button.value)).to.deep.equal(['deny', 'approve']);
  });

  it('offers an unverified account on the sign-in page to send the mail again', async () => {
    const redirect = 'http://client.test/callback';
    const registered = await forumctl(['apps', 'create', 'Client app', '--public', '--redirect-uri', redirect, '--json']);
    await signUp(newBrowser(), alice, 200);
    const browser = newBrowser();
    const signIn = await browser
      .get('/oauth/authorize')
      .query({
        response_type: 'code',
        client_id: registered.json<{ client_id: string }>().client_id,
        redirect_uri: redirect,
        state: 's',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      })
      .expect(200);
    const refused = await submit(browser, formTo(signIn.text, '/oauth/authorize'), { login: 'alice', password: PASSWORD }).expect(
      200,
    );
    expect(alertOf(refused.text)).to.include('not confirmed');
    const resend = formFor(refused.text, '/account/verification');
    expect(resend.fields.login).to.equal('alice');
    const res = await submit(browser, resend).expect(200);
    expect(res.text).to.include('a new link is on its way');
  });
});
