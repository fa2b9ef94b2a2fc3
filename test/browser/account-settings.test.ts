import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { browserSuite, DESKTOP, PHONE, watch } from '../support/browser-session.js';
import { ConfirmTotpEnrolment, StartTotpEnrolment } from '../../src/application/second-factors/enrolment.js';
import { axe, describeViolations } from '../support/axe.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { stepAt, totpCode } from '../support/totp.js';

/**
 * The settings page in a real browser (Debian's Chromium, playwright-core), JavaScript off, on a phone-sized
 * screen: sent to sign in, back to the settings, each form once (a refusal, then success), and at the end the
 * account deleted; in English and Simplified Chinese. Then the ways in of contract §25 (two-factor sign-in, provider
 * links, tokens for scripts) on the page, checked by axe-core. Shot at phone (390×844) and desktop (1280×900) width
 * into /tmp/settings-*.png for a person to look at.
 */
const PASSWORD = 'correct horse battery';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/settings-${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `/tmp/settings-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
}

/** Chromium reports a refused form's 400 itself; anything else (a blocked style sheet) is a fault of the page. */
const faults = (problems: string[]) => problems.filter((problem) => !problem.includes('status of 400'));

describe('Account settings, in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite();

  /** A phone's browser with scripts off, in `locale`; signing in is the test's own (sent there from the settings). */
  const newContext = (locale = 'en-US') => suite.newContext({ javaScriptEnabled: false, isMobile: true, locale });

  it('signs in, changes each setting, and deletes the account', async () => {
    const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const context = await newContext();
    const page = await context.newPage();
    const problems = watch(page);

    await page.goto(`${suite.server.url}/account/settings`);
    expect(new URL(page.url()).pathname).to.equal('/account/sign-in');
    await shoot(page, 'sign-in');
    await page.getByLabel('Login or e-mail').fill('alice');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(new URL(page.url()).pathname).to.equal('/account/settings');
    expect(await page.locator('h1').innerText()).to.equal('Account settings');
    await shoot(page, 'page');

    await page.getByLabel('Name', { exact: true }).fill('Alice Liddell');
    await page.getByLabel('Location').fill('Oxford');
    await page.getByLabel('Website').fill('https://alice.example');
    await page.getByLabel('About you').fill('Down the rabbit hole.');
    await page.getByLabel('Show my e-mail address to everyone').check();
    await page.getByRole('button', { name: 'Save profile' }).click();
    expect(await page.getByRole('status').innerText()).to.equal('Your profile is saved.');
    expect(await page.getByLabel('Location').inputValue()).to.equal('Oxford');
    expect(await page.getByLabel('Show my e-mail address to everyone').isChecked()).to.equal(true);

    await page.getByLabel('New address').fill('alice@wonderland.example');
    await page.locator('#email-password').fill('not my password');
    await page.getByRole('button', { name: 'Change address' }).click();
    expect(await page.getByRole('alert').innerText()).to.include('Current password is not correct');
    expect(await page.getByLabel('New address').inputValue()).to.equal('alice@wonderland.example');
    expect(await page.locator('#email-password').inputValue()).to.equal('');
    await shoot(page, 'refused');
    await page.locator('#email-password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change address' }).click();
    expect(await page.getByRole('status').innerText()).to.include('Nothing changes until you follow it');

    await page.locator('#current-password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('New password again').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    expect(await page.getByRole('status').innerText()).to.include('this browser stays signed in');

    await page.getByLabel('Mail me about').selectOption('mentions');
    await page.getByLabel('A digest of new topics').selectOption('none');
    await page.getByRole('button', { name: 'Save mail settings' }).click();
    expect(await page.getByRole('status').innerText()).to.equal('Your mail settings are saved.');
    expect(await page.getByLabel('A digest of new topics').inputValue()).to.equal('none');
    await shoot(page, 'saved');

    await page.locator('#delete-password').fill('a brand new passphrase');
    await page.getByLabel('I understand: delete my account').check();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    expect(await page.getByRole('status').innerText()).to.include('Your account is deleted');
    await shoot(page, 'goodbye');
    expect((await context.cookies(suite.server.url)).some((cookie) => cookie.name === 'forum_session')).to.equal(false);
    const [row] = await testEnv().sql<{ login: string }>("select login from users where login like 'deleted\\_%'");
    expect(row?.login).to.match(/^deleted_\d+$/);
    expect(faults(problems), 'console errors and warnings').to.deep.equal([]);
  });

  it('speaks Simplified Chinese to a Chinese browser', async () => {
    const made = await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const context = await newContext('zh-CN');
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${suite.server.url}/account/settings`);
    expect(await page.locator('h1').innerText()).to.equal('登录');
    await shoot(page, 'sign-in-zh');
    await page.getByLabel('用户名或电子邮件').fill('carol');
    await page.getByLabel('密码').fill(PASSWORD);
    await page.getByRole('button', { name: '登录' }).click();
    expect(await page.locator('html').getAttribute('lang')).to.equal('zh-CN');
    expect(await page.locator('h1').innerText()).to.equal('账户设置');
    await shoot(page, 'page-zh');
    await page.locator('#current-password').fill(PASSWORD);
    await page.getByLabel('新密码', { exact: true }).fill('一个全新的密码短语');
    await page.getByLabel('再次输入新密码').fill('另一个');
    await page.getByRole('button', { name: '更改密码' }).click();
    expect(await page.getByRole('alert').innerText()).to.equal('两次输入的密码不一致。');
    await shoot(page, 'refused-zh');
    expect(faults(problems), 'console errors and warnings').to.deep.equal([]);
  });

  it('offers an account without a password a mailed link instead of password fields, and lets it leave by its login', async () => {
    // As signing in with GitHub leaves an account: no password, a link to the provider. Signed in here with a password
    // that is then taken away (the session stays).
    const made = await forumctl(['users', 'create', 'gina', '--email', 'gina@example.com', '--password', PASSWORD, '--json']);
    expect(made.code, made.stderr).to.equal(0);
    const added = await forumctl(['auth', 'providers', 'add', 'github', '--kind', 'github', '--client-id', 'Iv1.abc'], {
      stdin: 'a client secret\n',
    });
    expect(added.code, added.stderr).to.equal(0);
    const context = await suite.newContext({ bypassCSP: true, isMobile: true });
    const page = await context.newPage();
    const problems = watch(page);
    await suite.signIn(page, 'gina', PASSWORD);
    const id = made.json<{ id: number }>().id;
    await testEnv().sql('update users set password_hash = null where id = $1', [id]);
    await testEnv().sql(
      "insert into provider_links (user_id, provider, subject, created_at) values ($1, 'github', '4242', now())",
      [id],
    );

    await page.goto(`${suite.server.url}/account/settings`);
    expect(await page.locator('input[type=password]').count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Set a password first' }).isVisible()).to.equal(true);
    await shoot(page, 'no-password');
    const violations = await axe(page);
    expect(describeViolations('settings without a password', violations), 'axe-core').to.equal('');
    await page.goto(`${suite.server.url}/account/settings?lang=zh-CN`);
    await shoot(page, 'no-password-zh');

    await page.goto(`${suite.server.url}/account/settings`);
    await page.getByRole('button', { name: 'Mail me a link to set a password' }).click();
    expect(await page.getByRole('status').innerText()).to.include('A link to set your password is on its way');
    await page.getByLabel('Type your login, gina, to confirm').fill('gina');
    await page.getByLabel('I understand: delete my account').check();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    expect(await page.getByRole('status').innerText()).to.include('Your account is deleted');
    const [row] = await testEnv().sql<{ login: string }>('select login from users where id = $1', [id]);
    expect(row?.login).to.equal(`deleted_${id}`);
    expect(faults(problems), 'console errors and warnings').to.deep.equal([]);
  });

  it('shows two-factor sign-in, provider links and tokens for scripts in both languages; axe finds nothing serious', async () => {
    const made = await forumctl(['users', 'create', 'quinn', '--email', 'quinn@example.com', '--password', PASSWORD, '--json']);
    expect(made.code, made.stderr).to.equal(0);
    const quinn = { id: made.json<{ id: number }>().id, login: 'quinn', role: 'member' as const };
    for (const [name, shown] of [
      ['github', 'GitHub'],
      ['ghe', 'Company GitHub'],
    ] as const) {
      const added = await forumctl(
        ['auth', 'providers', 'add', name, '--kind', 'github', '--client-id', 'Iv1.abc', '--display-name', shown],
        { stdin: 'a client secret\n' },
      );
      expect(added.code, added.stderr).to.equal(0);
    }
    await testEnv().sql(
      "insert into provider_links (user_id, provider, subject, created_at) values ($1, 'github', '42', now())",
      [quinn.id],
    );
    const env = testEnv();
    const { secret } = await env.scope(() => env.container.get(StartTotpEnrolment).execute(quinn));
    await env.scope(() => env.container.get(ConfirmTotpEnrolment).execute(quinn, { code: totpCode(secret) }));

    // Scripts on (axe is one) and the CSP bypassed for it: the settings page has no script of its own.
    const context = await suite.newContext({ bypassCSP: true, isMobile: true });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${suite.server.url}/account/sign-in`);
    await page.getByLabel('Login or e-mail').fill('quinn');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Code').fill(totpCode(secret, stepAt(Date.now()) + 1));
    await page.locator('form[action^="/account/sign-in/code"] button[type=submit]').click();
    expect(new URL(page.url()).pathname).to.equal('/account/settings');
    await page.getByLabel('What it is for').fill('nightly backup');
    await page.getByRole('button', { name: 'Create the token' }).click();
    expect(await page.locator('#new-token').inputValue()).to.match(/^fpat_/);

    const found: string[] = [];
    for (const lang of ['en', 'zh-CN'] as const) {
      if (lang === 'zh-CN') await page.goto(`${suite.server.url}/account/settings?lang=zh-CN`);
      const headings = await page.locator('h2').allInnerTexts();
      expect(headings, lang).to.have.length(9);
      await shoot(page, `ways-in-${lang}`);
      const violations = await axe(page);
      if (violations.length > 0) found.push(describeViolations(`settings (${lang})`, violations));
    }
    expect(found.join('\n'), 'axe-core').to.equal('');
    expect(faults(problems), 'console errors and warnings').to.deep.equal([]);
  });
});
