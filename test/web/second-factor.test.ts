import { expect } from 'chai';
import type supertest from 'supertest';
import { ConfirmTotpEnrolment, StartTotpEnrolment } from '../../src/application/second-factors/enrolment.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { formsOf, type PageForm, pkcePair } from '../support/oauth-flow.js';
import { checkedApi } from '../support/openapi.js';
import { alertOf, type Browser, formFor, PASSWORD, signedInAs, submit } from '../support/page-forms.js';
import { stepAt, totpCode } from '../support/totp.js';

/**
 * Two-factor sign-in in the pages (contract §25): set up on the settings page (a QR code, the key as text, a first
 * code, the recovery codes once), then both sign-in pages ask for the code after the password, and open no session
 * before it is right.
 */

const TWO_FACTOR = '/account/settings/two-factor';
const secretOf = (html: string) => /<code id="totp-secret">([A-Z2-7]+)<\/code>/.exec(html)?.[1];
const recoveryCodesOf = (html: string) =>
  [...html.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]!);
function formOf(res: supertest.Response, which: string): PageForm {
  const form = formsOf(res.text).find((candidate) => candidate.action.startsWith(TWO_FACTOR) && candidate.fields.form === which);
  if (!form) throw new Error(`no ${which} form on the page:\n${res.text.slice(0, 3000)}`);
  return form;
}

/** The password on /account/sign-in: to the code step, with no session yet. */
async function passwordStep(password = PASSWORD): Promise<Browser> {
  const browser = checkedApi(testEnv().app, { cookies: true });
  const page = await browser.get('/account/sign-in').expect(200);
  const res = await submit(browser, formFor(page.text, '/account/sign-in'), { login: 'alice', password }).expect(303);
  expect(res.headers.location).to.equal('/account/sign-in/code?lang=en');
  expect(String(res.headers['set-cookie'])).to.not.include('forum_session=');
  return browser;
}

/** alice, with a password and an authenticator that is on (set up through the use cases, as the settings page does). */
async function aliceWithAuthenticator(): Promise<{ id: number; secret: string }> {
  await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
  const [row] = await testEnv().sql<{ id: number }>("select id from users where login = 'alice'");
  const alice = { id: row!.id, login: 'alice', role: 'member' as const };
  const env = testEnv();
  const { secret } = await env.scope(() => env.container.get(StartTotpEnrolment).execute(alice));
  await env.scope(() => env.container.get(ConfirmTotpEnrolment).execute(alice, { code: totpCode(secret) }));
  return { id: alice.id, secret };
}

describe('Two-factor sign-in in the pages (contract §25)', () => {
  it('sets up an authenticator on the settings page, then asks for its code (or a recovery code) after the password', async () => {
    const settings = await signedInAs('alice');
    const page = await settings.get('/account/settings').expect(200);
    expect(page.text).to.include(`href="${TWO_FACTOR}?lang=en"`).and.include('Two-factor sign-in is off.');

    const off = await settings.get(TWO_FACTOR).expect(200);
    const enrolling = await submit(settings, formOf(off, 'start')).expect(200);
    expect(enrolling.text).to.match(/<svg[^>]*>/);
    const secret = secretOf(enrolling.text)!;
    expect(secret).to.have.length(32);
    const wrong = await submit(settings, formOf(enrolling, 'confirm'), { code: '12345' }).expect(400);
    expect(alertOf(wrong.text)).to.include('not right');
    const step = stepAt(Date.now());
    const on = await submit(settings, formOf(wrong, 'confirm'), { code: totpCode(secret, step) }).expect(200);
    const recoveryCodes = recoveryCodesOf(on.text);
    expect(recoveryCodes).to.have.length(10);
    // Shown once: the page again only counts them.
    expect(recoveryCodesOf((await settings.get(TWO_FACTOR).expect(200)).text)).to.have.length(0);

    // The account pages' sign-in: no session before the code; a wrong code asks again; a right one goes on.
    const browser = await passwordStep();
    await browser.get('/account/settings').expect(303);
    const codePage = await browser.get('/account/sign-in/code').expect(200);
    const again = await submit(browser, formFor(codePage.text, '/account/sign-in/code'), { code: '000000' }).expect(200);
    expect(alertOf(again.text)).to.include('not right');
    const done = await submit(browser, formFor(again.text, '/account/sign-in/code'), { code: totpCode(secret, step + 1) }).expect(
      303,
    );
    expect(done.headers.location).to.equal('/account/settings?lang=en');
    await browser.get('/account/settings').expect(200);
    // The pending sign-in is spent.
    await browser.get('/account/sign-in/code').expect(303);

    // A recovery code works where the app's code does, and says how many are left.
    const other = await passwordStep();
    const codeForm = formFor((await other.get('/account/sign-in/code').expect(200)).text, '/account/sign-in/code');
    const recovered = await submit(other, codeForm, { code: recoveryCodes[0]! }).expect(200);
    expect(recovered.text).to.include('You have 9 recovery codes left');
    await other.get('/account/settings').expect(200);
  });

  it('makes new recovery codes with a code instead of the password (all an account without a password has)', async () => {
    const settings = await signedInAs('alice');
    const enrolling = await submit(settings, formOf(await settings.get(TWO_FACTOR).expect(200), 'start')).expect(200);
    const on = await submit(settings, formOf(enrolling, 'confirm'), { code: totpCode(secretOf(enrolling.text)!) }).expect(200);
    const [first] = recoveryCodesOf(on.text);
    const page = await settings.get(TWO_FACTOR).expect(200);
    const wrong = await submit(settings, formOf(page, 'regenerate'), { code: '000000' }).expect(400);
    expect(alertOf(wrong.text)).to.include('not right');
    const renewed = await submit(settings, formOf(wrong, 'regenerate'), { code: first! }).expect(200);
    const fresh = recoveryCodesOf(renewed.text);
    expect(fresh).to.have.length(10).and.not.include(first);
  });

  it('the sign-in form of /oauth/authorize goes through the code step and back to the request', async () => {
    const { secret } = await aliceWithAuthenticator();
    const env = testEnv();

    const redirect = 'http://client.test/callback';
    const registered = await forumctl(['apps', 'create', 'Client app', '--public', '--redirect-uri', redirect, '--json']);
    const query = {
      response_type: 'code',
      client_id: registered.json<{ client_id: string }>().client_id,
      redirect_uri: redirect,
      state: 'xyz',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    };
    const browser = checkedApi(env.app, { cookies: true });
    const signIn = await browser.get('/oauth/authorize').query(query).expect(200);
    const toCode = await submit(browser, formFor(signIn.text, '/oauth/authorize'), { login: 'alice', password: PASSWORD }).expect(
      303,
    );
    expect(toCode.headers.location).to.equal('/account/sign-in/code');
    const codePage = await browser.get('/account/sign-in/code').expect(200);
    const done = await submit(browser, formFor(codePage.text, '/account/sign-in/code'), {
      code: totpCode(secret, stepAt(Date.now()) + 1),
    }).expect(303);
    expect(done.headers.location).to.match(/^\/oauth\/authorize\?/);
    const consent = await browser.get(done.headers.location!).expect(200);
    expect(consent.text).to.include('Client app');
  });

  it('a password reset keeps the second factor: its link signs nobody in, and the new password asks for the code', async () => {
    const { id, secret } = await aliceWithAuthenticator();
    // Someone who had the old password waits at the code step: the reset ends that too.
    const waiting = await passwordStep();

    const link = await forumctl(['users', 'reset-link', 'alice']);
    const token = /token=([A-Za-z0-9_-]+)/.exec(link.stdout)![1]!;
    const browser = checkedApi(testEnv().app, { cookies: true });
    const page = await browser.get('/account/password/reset').query({ token }).expect(200);
    const done = await submit(browser, formFor(page.text, '/account/password/reset'), {
      password: 'a brand new passphrase',
      password_confirmation: 'a brand new passphrase',
    }).expect(200);
    expect(String(done.headers['set-cookie'])).to.not.include('forum_session=');
    await browser.get('/account/settings').expect(303);
    await waiting.get('/account/sign-in/code').expect(303);

    expect(await testEnv().sql('select 1 from user_totp where user_id = $1 and confirmed_at is not null', [id])).to.have.length(
      1,
    );
    const signingIn = await passwordStep('a brand new passphrase');
    const codePage = await signingIn.get('/account/sign-in/code').expect(200);
    await submit(signingIn, formFor(codePage.text, '/account/sign-in/code'), {
      code: totpCode(secret, stepAt(Date.now()) + 1),
    }).expect(303);
    await signingIn.get('/account/settings').expect(200);
  });
});
