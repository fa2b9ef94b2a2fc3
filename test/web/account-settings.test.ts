import { expect } from 'chai';
import type supertest from 'supertest';
import { checkedApi } from '../support/openapi.js';
import { api } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { mailedLink, startMailWorker } from '../support/browser-mail.js';
import { type PageForm, formsOf } from '../support/oauth-flow.js';

/**
 * The settings page (contract §16b, §16c, §17), driven as a browser drives it: a cookie jar, the page's forms
 * with their hidden fields. Each form posts to /account/settings with a hidden `form` naming it.
 */

const PASSWORD = 'correct horse battery';

type Browser = ReturnType<typeof checkedApi>;
const newBrowser = (): Browser => checkedApi(testEnv().app, { cookies: true });

function setCookies(res: supertest.Response): string[] {
  const header = res.headers['set-cookie'] as string[] | string | undefined;
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}
const cookieNamed = (res: supertest.Response, name: string) => setCookies(res).find((line) => line.startsWith(`${name}=`));
const alertOf = (html: string) => /<p class="alert" role="alert">([\s\S]*?)<\/p>/.exec(html)?.[1]?.trim();
const statusOf = (html: string) => /<p class="notice" role="status">([\s\S]*?)<\/p>/.exec(html)?.[1]?.trim();

function formFor(html: string, path: string, which?: string): PageForm {
  const form = formsOf(html).find(
    (candidate) => candidate.action.split(/[?#]/)[0] === path && (which === undefined || candidate.fields.form === which),
  );
  if (!form) throw new Error(`no form ${which ?? ''} posting to ${path} on the page:\n${html.slice(0, 3000)}`);
  return form;
}

function submit(browser: Browser, form: PageForm, typed: Record<string, string> = {}): supertest.Test {
  return browser
    .post(form.action.split('#')[0]!)
    .type('form')
    .send({ ...form.fields, ...typed });
}

async function makeAlice(): Promise<void> {
  const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
  expect(made.code, made.stderr).to.equal(0);
}

/** A browser signed in as alice through /account/sign-in, on her settings page. */
async function signedIn(): Promise<{ browser: Browser; page: supertest.Response }> {
  const browser = newBrowser();
  const signIn = await browser.get('/account/sign-in').expect(200);
  const res = await submit(browser, formFor(signIn.text, '/account/sign-in'), { login: 'alice', password: PASSWORD }).expect(303);
  expect(res.headers.location).to.equal('/account/settings?lang=en');
  const page = await browser.get('/account/settings').expect(200);
  return { browser, page };
}

async function userRow(login: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await testEnv().sql<Record<string, unknown>>('select * from users where login = $1', [login]);
  return row;
}

const sessionsOf = async (userId: unknown) =>
  (await testEnv().sql<{ n: string }>('select count(*)::text as n from web_sessions where user_id = $1', [userId]))[0]!.n;

/**
 * A browser signed in as gina, whose account has no password, as signing in with GitHub leaves one (contract §25): no
 * password digest, a link to the provider. She signs in here once with a password, which is then taken away (the
 * session stays); the settings page is then what a provider's account sees.
 */
async function passwordLess(): Promise<{ browser: Browser; page: supertest.Response; id: unknown }> {
  const made = await forumctl(['users', 'create', 'gina', '--email', 'gina@example.com', '--password', PASSWORD]);
  expect(made.code, made.stderr).to.equal(0);
  const browser = newBrowser();
  const signIn = await browser.get('/account/sign-in').expect(200);
  await submit(browser, formFor(signIn.text, '/account/sign-in'), { login: 'gina', password: PASSWORD }).expect(303);
  const [row] = await testEnv().sql<{ id: number }>("update users set password_hash = null where login = 'gina' returning id");
  await testEnv().sql(
    "insert into provider_links (user_id, provider, subject, created_at) values ($1, 'github', '4242', now())",
    [row!.id],
  );
  const page = await browser.get('/account/settings').expect(200);
  return { browser, page, id: row!.id };
}

describe('account settings page (contract §16b)', () => {
  it('sends a browser that is not signed in to the sign-in page, and back to the settings once signed in', async () => {
    await makeAlice();
    const browser = newBrowser();
    const away = await browser.get('/account/settings?lang=zh-CN').expect(303);
    expect(away.headers.location).to.equal('/account/sign-in?lang=zh-CN');
    await newBrowser().post('/account/settings').type('form').send({ form: 'profile', name: 'x' }).expect(303);

    const signIn = await browser.get('/account/sign-in').expect(200);
    expect(signIn.headers['content-security-policy']).to.include("default-src 'none'").and.not.include('script');
    const form = formFor(signIn.text, '/account/sign-in');
    await submit(browser, form, { login: 'alice', password: PASSWORD, csrf_token: 'forged' }).expect(403);
    const wrong = await submit(browser, form, { login: 'alice', password: 'not it at all' }).expect(200);
    expect(alertOf(wrong.text)).to.equal('Wrong login or password.');
    expect(wrong.text).to.include('value="alice"').and.not.include('not it at all');
    const ok = await submit(browser, form, { login: 'alice', password: PASSWORD }).expect(303);
    expect(cookieNamed(ok, 'forum_session')).to.match(/; path=\/; expires=[^;]+; samesite=lax; httponly$/i);
    const page = await browser.get(ok.headers.location!).expect(200);
    expect(page.text).to.include('Account settings').and.include('Signed in as alice');
    expect(page.text).to.not.include('<script');
    // Signed in, the sign-in page goes on to the settings.
    await browser.get('/account/sign-in').expect(303);
  });

  it('tells an unconfirmed account so on the sign-in page, and offers the mail again', async () => {
    const browser = newBrowser();
    const up = await browser.get('/account/sign-up').expect(200);
    await submit(browser, formFor(up.text, '/account/sign-up'), {
      login: 'alice',
      email: 'alice@example.com',
      password: PASSWORD,
    }).expect(303);
    const signIn = await browser.get('/account/sign-in').expect(200);
    const refused = await submit(browser, formFor(signIn.text, '/account/sign-in'), {
      login: 'alice',
      password: PASSWORD,
    }).expect(200);
    expect(alertOf(refused.text)).to.include('not confirmed');
    expect(formFor(refused.text, '/account/verification').fields.login).to.equal('alice');
  });

  it('saves the profile with the CSRF token, refuses without it, and shows a refused field again with what was typed', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    const form = formFor(page.text, '/account/settings', 'profile');
    const typed = {
      name: 'Alice A.',
      location: 'Lisbon',
      company: 'Acme',
      twitter: 'alice_t',
      github: 'alice-gh',
      website: 'https://alice.example',
      tagline: 'Hi <there>',
      bio: 'Line one\nline two',
      email_public: 'true',
    };
    await submit(browser, form, { ...typed, csrf_token: 'forged' }).expect(403);
    await submit(newBrowser(), form, typed).expect(303); // another browser: no session
    expect(await userRow('alice')).to.include({ name: null });

    const saved = await submit(browser, form, typed).expect(200);
    expect(statusOf(saved.text)).to.equal('Your profile is saved.');
    expect(saved.text).to.include('value="Lisbon"').and.include('Hi &lt;there&gt;').and.include('checked');
    const profile = (await api().get('/api/v3/users/alice').expect(200)).body.user;
    expect(profile).to.include({
      name: 'Alice A.',
      location: 'Lisbon',
      website: 'https://alice.example',
      email: 'alice@example.com',
    });

    // Unchecked: no longer public.
    const { email_public: _public, ...rest } = typed;
    const bad = await submit(browser, formFor(saved.text, '/account/settings', 'profile'), {
      ...rest,
      website: 'ftp://nope',
    }).expect(400);
    expect(alertOf(bad.text)).to.include('Website must be an http or https URL');
    expect(bad.text).to.include('value="ftp://nope"');
    const unchecked = await submit(browser, formFor(bad.text, '/account/settings', 'profile'), rest).expect(200);
    expect(statusOf(unchecked.text)).to.equal('Your profile is saved.');
    expect((await api().get('/api/v3/users/alice').expect(200)).body.user.email).to.equal('');
  });

  it('saves the mail preferences; refuses them without the CSRF token', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    const form = formFor(page.text, '/account/settings', 'preferences');
    expect(page.text).to.match(/<option value="mentions_and_replies" selected>/);
    const chosen = { email_notifications: 'mentions', email_digest: 'daily', email_messages: 'never', locale: 'zh-CN' };
    await submit(browser, form, { ...chosen, csrf_token: '' }).expect(403);
    const saved = await submit(browser, form, chosen).expect(200);
    expect(statusOf(saved.text)).to.equal('Your mail settings are saved.');
    expect(saved.text).to.match(/<option value="daily" selected>/);
    expect(await userRow('alice')).to.include({
      email_notifications: 'mentions',
      email_digest: 'daily',
      email_messages: 'never',
      locale: 'zh-CN',
    });
    const wrong = await submit(browser, form, { email_digest: 'hourly' }).expect(400);
    expect(alertOf(wrong.text)).to.include('email_digest must be one of');
  });

  it('downloads the signed-in person’s data as a file; a browser not signed in goes to sign in', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    expect(page.text).to.include('href="/account/settings/export"');
    const res = await browser.get('/account/settings/export').expect(200);
    expect(res.headers['content-disposition']).to.equal('attachment; filename="forum-alice.json"');
    expect(res.body.profile).to.include({ login: 'alice', email: 'alice@example.com' });
    expect(JSON.stringify(res.body)).not.to.match(/digest|argon2/);
    await newBrowser().get('/account/settings/export').expect(303);
  });

  it('an e-mail change mails a link to the new address and changes nothing yet', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    const form = formFor(page.text, '/account/settings', 'email');
    await submit(browser, form, { email: 'new@example.com', current_password: PASSWORD, csrf_token: 'x' }).expect(403);
    const wrong = await submit(browser, form, { email: 'new@example.com', current_password: 'not my password' }).expect(400);
    expect(alertOf(wrong.text)).to.include('Current password is not correct');
    expect(wrong.text).to.include('value="new@example.com"').and.not.include('not my password');

    const sent = await submit(browser, form, { email: 'new@example.com', current_password: PASSWORD }).expect(200);
    expect(statusOf(sent.text)).to.include('new@example.com').and.include('Nothing changes until you follow it');
    const rows = await testEnv().sql<{ purpose: string; used_at: Date | null }>(
      'select t.purpose, t.used_at from account_tokens t join users u on u.id = t.user_id where u.login = $1',
      ['alice'],
    );
    expect(rows).to.deep.equal([{ purpose: 'email_change', used_at: null }]);
    expect(await userRow('alice')).to.include({ email: 'alice@example.com' });
  });

  it('a password change keeps this browser signed in and ends every other token and session', async () => {
    await makeAlice();
    const issued = await forumctl(['tokens', 'issue', 'alice', '--json']);
    const token = issued.json<{ access_token: string }>().access_token;
    const other = await signedIn();
    const { browser, page } = await signedIn();
    const form = formFor(page.text, '/account/settings', 'password');
    const change = { current_password: PASSWORD, password: 'a new passphrase', password_confirmation: 'a new passphrase' };
    await submit(browser, form, { ...change, csrf_token: 'x' }).expect(403);
    const differ = await submit(browser, form, { ...change, password_confirmation: 'another' }).expect(400);
    expect(alertOf(differ.text)).to.equal('The two passwords differ.');
    const wrong = await submit(browser, form, { ...change, current_password: 'nope nope nope' }).expect(400);
    expect(alertOf(wrong.text)).to.include('Current password is not correct');
    expect(wrong.text).to.not.include('a new passphrase');

    const done = await submit(browser, form, change).expect(200);
    expect(statusOf(done.text)).to.include('this browser stays signed in');
    expect(cookieNamed(done, 'forum_session')).to.match(/; path=\/; expires=/);
    const user = await userRow('alice');
    expect(await sessionsOf(user!.id)).to.equal('1');
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${token}`).expect(401);
    await other.browser.get('/account/settings').expect(303);
    // This browser: still signed in, with the new session's forms.
    const again = await browser.get('/account/settings').expect(200);
    const prefs = formFor(again.text, '/account/settings', 'preferences');
    await submit(browser, prefs, { email_digest: 'none' }).expect(200);
  });

  it('deleting the account anonymizes it and signs the browser out; a wrong password or no tick refuses', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    const form = formFor(page.text, '/account/settings', 'delete');
    await submit(browser, form, { password: PASSWORD, confirm: 'yes', csrf_token: 'x' }).expect(403);
    const unticked = await submit(browser, form, { password: PASSWORD }).expect(400);
    expect(alertOf(unticked.text)).to.include('Tick the box');
    const wrong = await submit(browser, form, { password: 'not the password', confirm: 'yes' }).expect(400);
    expect(alertOf(wrong.text)).to.include('Password is not correct');
    const user = await userRow('alice');

    const gone = await submit(browser, form, { password: PASSWORD, confirm: 'yes' }).expect(200);
    expect(statusOf(gone.text)).to.include('Your account is deleted');
    expect(cookieNamed(gone, 'forum_session')).to.match(/^forum_session=; path=\/; expires=Thu, 01 Jan 1970/);
    expect(await userRow('alice')).to.equal(undefined);
    const [anonymized] = await testEnv().sql<{ login: string; email: string | null }>(
      'select login, email from users where id = $1',
      [user!.id],
    );
    expect(anonymized!.login).to.equal(`deleted_${user!.id}`);
    expect(await sessionsOf(user!.id)).to.equal('0');
    await browser.get('/account/settings').expect(303);
  });

  it('offers an account without a password no field it cannot fill: a link mailed to its address sets one', async () => {
    const { browser, page } = await passwordLess();
    // No current password anywhere: the e-mail section says to set one first, the password section mails the link.
    expect(page.text).to.not.include('name="current_password"').and.not.include('type="password"');
    expect(formsOf(page.text).some((form) => form.fields.form === 'email' || form.fields.form === 'password')).to.equal(false);
    expect(page.text).to.include('this account has none yet').and.include('<a href="#password">Set a password first</a>');
    expect(page.text).to.include('This account has no password').and.include('gina@example.com');
    expect(formFor(page.text, '/account/settings', 'delete').fields).to.not.have.property('password');

    const mailWorker = await startMailWorker();
    try {
      const form = formFor(page.text, '/account/settings', 'set_password');
      await submit(browser, form, { csrf_token: 'forged' }).expect(403);
      const sent = await submit(browser, form).expect(200);
      expect(statusOf(sent.text)).to.include('A link to set your password is on its way');
      // The forgot-password mail, to the account's confirmed address; its link sets the first password.
      const link = await mailedLink('gina@example.com', '/account/password/reset', '');
      const reset = await browser.get(link).expect(200);
      const done = await submit(browser, formFor(reset.text, '/account/password/reset'), {
        password: 'a first passphrase',
        password_confirmation: 'a first passphrase',
      }).expect(200);
      expect(done.text).to.include('signed in as gina');
    } finally {
      await mailWorker.stop();
    }
    // Now it has a password: the page asks for it where it asks for it from everyone.
    const now = await browser.get('/account/settings').expect(200);
    expect(formFor(now.text, '/account/settings', 'password').fields).to.include({ form: 'password' });
    expect(now.text).to.include('name="current_password"').and.not.include('This account has no password');
    expect((await userRow('gina'))!.password_hash).to.be.a('string');
  });

  it('an account without a password deletes itself by typing its login; another login refuses', async () => {
    const { browser, page, id } = await passwordLess();
    const form = formFor(page.text, '/account/settings', 'delete');
    expect(page.text).to.include('Type your login, gina, to confirm').and.include('id="delete-login"');
    const wrong = await submit(browser, form, { login: 'alice', confirm: 'yes' }).expect(400);
    expect(alertOf(wrong.text)).to.include('Login is not correct');
    const password = await submit(browser, form, { password: PASSWORD, confirm: 'yes' }).expect(400);
    expect(alertOf(password.text)).to.include('Login is not correct');
    expect(await userRow('gina')).to.not.equal(undefined);

    const gone = await submit(browser, form, { login: 'gina', confirm: 'yes' }).expect(200);
    expect(statusOf(gone.text)).to.include('Your account is deleted');
    expect(await userRow('gina')).to.equal(undefined);
    const [anonymized] = await testEnv().sql<{ login: string }>('select login from users where id = $1', [id]);
    expect(anonymized!.login).to.equal(`deleted_${id}`);
    expect(await testEnv().sql('select 1 from provider_links where user_id = $1', [id])).to.have.length(0);
    await browser.get('/account/settings').expect(303);
  });

  it('an account with a password cannot delete itself with its login alone', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    expect(page.text).to.not.include('id="delete-login"');
    const form = formFor(page.text, '/account/settings', 'delete');
    const refused = await submit(browser, form, { login: 'alice', confirm: 'yes' }).expect(400);
    expect(alertOf(refused.text)).to.include('Password is not correct');
    expect(await userRow('alice')).to.not.equal(undefined);
    await browser.get('/account/settings').expect(200);
  });

  it('speaks Simplified Chinese to an account without a password', async () => {
    const { browser } = await passwordLess();
    const zh = await browser.get('/account/settings?lang=zh-CN').expect(200);
    expect(zh.text).to.include('请先设置密码').and.include('给我发送设置密码的链接').and.include('输入你的用户名 gina 以确认');
    const wrong = await submit(browser, formFor(zh.text, '/account/settings', 'delete'), { login: 'x', confirm: 'yes' }).expect(
      400,
    );
    expect(alertOf(wrong.text)).to.equal('用户名不正确：这个账户没有密码，请输入你的用户名以确认。');
  });

  it('signs out with the session’s token', async () => {
    await makeAlice();
    const { browser, page } = await signedIn();
    const form = formFor(page.text, '/account/sign-out');
    await submit(browser, form, { csrf_token: 'x' }).expect(403);
    const out = await submit(browser, form).expect(200);
    expect(statusOf(out.text)).to.include('signed out');
    await browser.get('/account/settings').expect(303);
  });

  it('speaks Simplified Chinese, and links to the settings from the confirmed-address page', async () => {
    await makeAlice();
    const { browser } = await signedIn();
    const zh = await browser.get('/account/settings').set('Accept-Language', 'zh-CN').expect(200);
    expect(zh.text).to.include('<html lang="zh-CN">').and.include('账户设置').and.include('通知邮件');
    const form = formFor(zh.text, '/account/settings', 'email');
    expect(form.action).to.equal('/account/settings?lang=zh-CN#email');
    const wrong = await submit(browser, form, { email: 'x@example.com', current_password: 'wrong one' }).expect(400);
    expect(alertOf(wrong.text)).to.equal('当前密码不正确。');

    const up = newBrowser();
    const signUp = await up.get('/account/sign-up').expect(200);
    await submit(up, formFor(signUp.text, '/account/sign-up'), {
      login: 'bob',
      email: 'bob@example.com',
      password: PASSWORD,
    }).expect(303);
    const [row] = await testEnv().sql<{ id: string }>(
      "select t.id from account_tokens t join users u on u.id = t.user_id where u.login = 'bob'",
    );
    const { MailTokenKeys } = await import('../../src/application/ports.js');
    const token = testEnv().container.get<{ tokenFor(id: string): string }>(MailTokenKeys).tokenFor(row!.id);
    const verify = await up.get('/account/verify').query({ token }).expect(200);
    const confirmed = await submit(up, formFor(verify.text, '/account/verify')).expect(200);
    expect(confirmed.text).to.include('href="/account/settings?lang=en"');
    await up.get('/account/settings').expect(200);
  });
});
