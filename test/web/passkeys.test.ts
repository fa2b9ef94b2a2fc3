import { expect } from 'chai';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { formsOf } from '../support/oauth-flow.js';
import { checkedApi } from '../support/openapi.js';
import { alertOf, type Browser, formFor, PASSWORD, submit } from '../support/page-forms.js';

/**
 * Passkeys' server-side rules in the pages (contract §25), without an authenticator: a passkey makes the sign-in ask
 * for a second factor; the options need a pending sign-in (or, to add one, a session) and name only the account's
 * own passkeys; an answer that is no assertion, or names another account's passkey, is refused and counted with
 * the account's failed sign-ins; `forumctl users 2fa reset` removes passkeys and its audit entry says how many. The
 * ceremonies that succeed run in Chromium (test/browser/passkeys.test.ts).
 */

const CODE_STEP = '/account/sign-in/code';

/** A passkey row as the registration ceremony leaves one (its key is never checked here: no assertion gets that far). */
async function givePasskey(login: string, credentialId: string): Promise<void> {
  await testEnv().sql(
    `insert into passkeys (user_id, credential_id, public_key, name, created_at)
     select id, $2, 'pQECAyYgASFYIA', 'Phone', now() from users where login = $1`,
    [login, credentialId],
  );
}

/** The password on /account/sign-in: to the code step, with no session yet. */
async function passwordStep(): Promise<Browser> {
  const browser = checkedApi(testEnv().app, { cookies: true });
  const page = await browser.get('/account/sign-in').expect(200);
  const res = await submit(browser, formFor(page.text, '/account/sign-in'), { login: 'alice', password: PASSWORD }).expect(303);
  expect(res.headers.location).to.equal(`${CODE_STEP}?lang=en`);
  return browser;
}

describe('Passkeys in the pages (contract §25)', () => {
  it('asks an account with a passkey for it, gives options only to its pending sign-in, refuses and counts forged answers', async () => {
    for (const login of ['alice', 'bob']) {
      const made = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD]);
      expect(made.code, made.stderr).to.equal(0);
    }
    await givePasskey('alice', 'YWxpY2Uta2V5');
    await givePasskey('bob', 'Ym9iLWtleQ');

    // Without a pending sign-in (or a session), no options.
    const stranger = checkedApi(testEnv().app, { cookies: true });
    const csrf = formFor((await stranger.get('/account/sign-in').expect(200)).text, '/account/sign-in').fields.csrf_token!;
    const none = await stranger.post('/account/sign-in/passkey-options').type('form').send({ csrf_token: csrf }).expect(403);
    expect(none.body.error).to.be.a('string');
    await stranger.post('/account/settings/two-factor/passkey-options').type('form').send({ csrf_token: csrf }).expect(403);

    // A passkey alone is a second factor: the password leads to the code step, which offers the passkey.
    const browser = await passwordStep();
    const page = await browser.get(CODE_STEP).expect(200);
    expect(page.headers['content-security-policy']).to.include("script-src 'self'").and.include("default-src 'none'");
    const passkeyForm = formsOf(page.text).find((form) => 'credential' in form.fields)!;
    expect(passkeyForm.action).to.equal(`${CODE_STEP}?lang=en`);
    const token = passkeyForm.fields.csrf_token!;
    await browser.post('/account/sign-in/passkey-options').type('form').send({ csrf_token: 'forged' }).expect(403);
    const options = await browser.post('/account/sign-in/passkey-options').type('form').send({ csrf_token: token }).expect(200);
    expect(options.headers['cache-control']).to.equal('no-store');
    expect(options.body.rpId).to.equal('forum.test');
    expect(options.body.challenge).to.match(/^[A-Za-z0-9_-]{20,}$/);
    expect(options.body.allowCredentials.map((c: { id: string }) => c.id)).to.deep.equal(['YWxpY2Uta2V5']);
    const [held] = await testEnv().sql<{ challenge: string }>('select challenge from passkey_challenges');
    expect(held!.challenge).to.equal(options.body.challenge);

    // Garbage, and an assertion naming bob's passkey: each refused and counted (3 failures lock the account here).
    const garbage = await submit(browser, passkeyForm, { credential: 'not json' }).expect(200);
    expect(alertOf(garbage.text)).to.include('passkey was not accepted');
    await browser.post('/account/sign-in/passkey-options').type('form').send({ csrf_token: token }).expect(200);
    const forged = JSON.stringify({
      id: 'Ym9iLWtleQ',
      rawId: 'Ym9iLWtleQ',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults: {},
    });
    const others = await submit(browser, passkeyForm, { credential: forged }).expect(200);
    expect(alertOf(others.text)).to.include('passkey was not accepted');
    // The challenge was spent by that answer: sending it again finds none.
    expect(await testEnv().sql('select 1 from passkey_challenges')).to.have.length(0);
    await submit(browser, passkeyForm, { credential: forged }).expect(200);
    await submit(browser, passkeyForm, { credential: forged }).expect(429);
    await browser.get('/account/settings').expect(303);

    // forumctl users 2fa reset removes passkeys, and says so in the audit.
    const reset = await forumctl(['users', '2fa', 'reset', 'alice', '--reason', 'lost her phone']);
    expect(reset.code, reset.stderr).to.equal(0);
    const [entry] = await testEnv().sql<{ changes: Record<string, unknown> }>(
      "select changes from audit_entries where action = 'user.second_factor_reset'",
    );
    expect(entry!.changes).to.deep.equal({ second_factor: [true, false], totp: [false, false], passkeys: [1, 0] });
    expect(
      await testEnv().sql("select 1 from passkeys p join users u on u.id = p.user_id where u.login = 'alice'"),
    ).to.have.length(0);
  });
});
