import { expect } from 'chai';
import type supertest from 'supertest';
import { devisePasswordPrefix } from '../../src/application/accounts/devise-passwords.js';
import { HOMELAND_DEVISE_PEPPER as HOMELAND_PEPPER } from '../../src/application/imports/import-homeland.js';
import { checkedApi } from '../support/openapi.js';
import { api } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { type PageForm, formsOf } from '../support/oauth-flow.js';

/**
 * Signing in with a password hash imported from homeland (contract §20): devise's bcrypt of the password and the
 * site's pepper, stored as `$devise-bcrypt$<pepper>` + the bcrypt hash. The first success replaces it with argon2id.
 */

const PASSWORD = 'correct horse battery';
/** `Devise::Encryptor.digest` of PASSWORD with homeland's pepper and stretches (10), made by Ruby's bcrypt gem 3.1.18. */
const ENCRYPTED_PASSWORD = '$2a$10$4n0ZnNgYotDqMG27mIHGn.iQvDSOm9hmOoVNpxpzEJLrSvCnflPPi';

interface App {
  client_id: string;
  client_secret: string;
}

/** alice, with the password hash the import writes: `prefix || encrypted_password`, in SQL as it does. */
async function importedAlice(): Promise<string> {
  const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', 'not the one at all']);
  expect(made.code, made.stderr).to.equal(0);
  const [row] = await testEnv().sql<{ password_hash: string }>(
    `update users set password_hash = $1 || $2 where login = 'alice' returning password_hash`,
    [devisePasswordPrefix(HOMELAND_PEPPER), ENCRYPTED_PASSWORD],
  );
  return row!.password_hash;
}

async function storedHash(): Promise<string> {
  const [row] = await testEnv().sql<{ password_hash: string }>(`select password_hash from users where login = 'alice'`);
  return row!.password_hash;
}

type Browser = ReturnType<typeof checkedApi>;

function signInForm(html: string): PageForm {
  const form = formsOf(html).find((candidate) => candidate.action.split(/[?#]/)[0] === '/account/sign-in');
  if (!form) throw new Error(`no sign-in form on the page:\n${html.slice(0, 3000)}`);
  return form;
}

/** The sign-in page's form sent with alice's login and `password`, answered with `status`. */
async function signInPage(browser: Browser, password: string, status: number): Promise<supertest.Response> {
  const page = await browser.get('/account/sign-in').expect(200);
  const form = signInForm(page.text);
  return browser
    .post(form.action.split('#')[0]!)
    .type('form')
    .send({ ...form.fields, login: 'alice', password })
    .expect(status);
}

describe('signing in with an imported devise password hash (contract §20)', () => {
  let app: App;
  beforeEach(async () => {
    app = (await forumctl(['apps', 'create', 'Test client', '--json'])).json<App>();
  });

  const token = (password: string) =>
    api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', username: 'alice', password, ...app });

  it('password grant: the right password gets a token and the hash becomes argon2id; the same password works again', async () => {
    const imported = await importedAlice();
    expect(imported.startsWith('$devise-bcrypt$YzdkNGVk')).to.equal(true);
    expect(imported.endsWith(ENCRYPTED_PASSWORD)).to.equal(true);

    const wrong = await token('correct horse batterY').expect(400);
    expect(wrong.body.error).to.equal('invalid_grant');
    expect(await storedHash(), 'a wrong password changes nothing').to.equal(imported);

    const granted = await token(PASSWORD).expect(200);
    expect(granted.body.access_token).to.be.a('string');
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${granted.body.access_token}`).expect(200);
    const rehashed = await storedHash();
    expect(rehashed.startsWith('$argon2id$')).to.equal(true);

    await token(PASSWORD).expect(200);
    expect(await storedHash(), 'ours is kept').to.equal(rehashed);
    await token('correct horse batterY').expect(400);
  });

  it('sign-in page: a wrong password is refused and changes nothing; the right one signs in and rehashes', async () => {
    const imported = await importedAlice();
    const browser = checkedApi(testEnv().app, { cookies: true });
    const wrong = await signInPage(browser, 'not it at all', 200);
    expect(wrong.text).to.include('Wrong login or password.');
    expect(await storedHash()).to.equal(imported);

    const ok = await signInPage(browser, PASSWORD, 303);
    expect(ok.headers.location).to.equal('/account/settings?lang=en');
    const rehashed = await storedHash();
    expect(rehashed.startsWith('$argon2id$')).to.equal(true);

    await signInPage(checkedApi(testEnv().app, { cookies: true }), PASSWORD, 303);
    expect(await storedHash()).to.equal(rehashed);
    await token(PASSWORD).expect(200);
  });
});
