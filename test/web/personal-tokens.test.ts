import { expect } from 'chai';
import { api } from '../support/builders.js';
import { formsOf, type PageForm } from '../support/oauth-flow.js';
import { alertOf, signedInAs, submit } from '../support/page-forms.js';

/** The settings page's tokens for scripts (contract §25), as a browser drives it. */

const settingsForms = (html: string, which: string): PageForm[] =>
  formsOf(html).filter((form) => form.action.split(/[?#]/)[0] === '/account/settings' && form.fields.form === which);
const newTokenOf = (html: string) => /id="new-token" value="([^"]+)"/.exec(html)?.[1];

describe('settings page: tokens for scripts (contract §25)', () => {
  it('makes a token shown once, lists it without the token, revokes it; CSRF as the other forms', async () => {
    const browser = await signedInAs('alice');
    const page = await browser.get('/account/settings').expect(200);
    expect(page.text).to.include('Tokens for scripts').and.include('You have no tokens for scripts.');
    const [create] = settingsForms(page.text, 'token');

    await submit(browser, create!, { token_name: 'nightly', scope: 'read', csrf_token: 'forged' }).expect(403);
    const blank = await submit(browser, create!, { token_name: '  ', scope: 'read', expires_in_days: '30' }).expect(400);
    expect(alertOf(blank.text)).to.equal('Name can&#39;t be blank.');

    const made = await submit(browser, create!, { token_name: 'nightly', scope: 'read', expires_in_days: 'none' }).expect(200);
    expect(made.headers['cache-control']).to.equal('no-store');
    const token = newTokenOf(made.text)!;
    expect(token).to.match(/^fpat_/);
    expect(made.text).to.include('Copy it now: it is not shown again.');
    const me = await api()
      .get('/api/v3/users/me')
      .set({ Authorization: `Bearer ${token}` })
      .expect(200);
    expect(me.body.user.login).to.equal('alice');

    const again = await browser.get('/account/settings?lang=zh-CN').expect(200);
    expect(again.text).not.to.include(token);
    expect(again.text).to.include('nightly').and.include('只读').and.include('永不过期');
    const [revoke] = settingsForms(again.text, 'revoke_token');
    expect(revoke!.buttons[0]!.text).to.equal('撤销“nightly”');

    const revoked = await submit(browser, revoke!).expect(200);
    expect(revoked.text).to.include('令牌已撤销');
    expect(settingsForms(revoked.text, 'revoke_token')).to.have.length(0);
    await api()
      .get('/api/v3/users/me')
      .set({ Authorization: `Bearer ${token}` })
      .expect(401);
    // The same form again names a token that is no longer live: said on the page, not a page that is not there.
    const twice = await submit(browser, revoke!).expect(400);
    expect(alertOf(twice.text)).to.equal('这个令牌已经失效：它已被撤销或已过期。');
  });
});
