import { expect } from 'chai';
import supertest from 'supertest';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { type Browser, formFor, PASSWORD, submit } from '../support/page-forms.js';

/**
 * A path nobody serves: outside the API's own paths, a browser gets the forum's not-found page (404, HTML, in the
 * reader's language, in the forum's frame); on the API's and the service's paths, the API's JSON 404 as ever; a known
 * path asked with a method none of its routes serves is still 405 with Allow.
 *
 * Driven through the app without the OpenAPI checker: a path no route knows is no operation of the document.
 */
describe('the forum in a browser: a path nobody serves', () => {
  const app = () => supertest(testEnv().app.callback());

  it('answers an unknown page path with the forum’s not-found page, in English', async () => {
    for (const path of ['/no/where/deep', '/topics/abc/def/ghi', '/account/nothing-here/at-all']) {
      const res = await app()
        .get(path)
        .expect(404)
        .expect('Content-Type', /^text\/html/);
      expect(res.text, path).to.match(/^<!DOCTYPE html><html lang="en">/i);
      expect(res.text, path).to.include('<h1>Not found</h1>');
      expect(res.text, path).to.include('There is nothing here, or it is not for everyone to see.');
      // The usual frame: the menu, the search, the footer's other language for this very path.
      expect(res.text, path).to.include('<a href="/account/sign-in">').and.include('role="search"');
      expect(res.text, path).to.include(`href="${path}?lang=zh-CN"`);
      expect(res.headers['cache-control'], path).to.equal('public, no-cache');
      expect(res.headers['content-security-policy'], path).to.be.a('string');
    }
  });

  it('speaks the reader’s language: Accept-Language, or ?lang=', async () => {
    const byHeader = await app()
      .get('/no/where/deep')
      .set('Accept-Language', 'zh-CN,zh;q=0.9,en;q=0.8')
      .expect(404)
      .expect('Content-Type', /^text\/html/);
    const byQuery = await app().get('/topics/abc/def/ghi?lang=zh-CN').expect(404);
    for (const res of [byHeader, byQuery]) {
      expect(res.text).to.match(/<html lang="zh-CN">/);
      expect(res.text).to.include('<h1>找不到页面</h1>');
      expect(res.text).to.include('这里什么也没有，或者它不是所有人都能看到的。');
      expect(res.text).not.to.include('Not found');
    }
  });

  it('shows a signed-in reader their own frame (their name, their settings)', async () => {
    const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD]);
    expect(made.code, made.stderr).to.equal(0);
    const browser = supertest.agent(testEnv().app.callback()) as unknown as Browser;
    const signIn = await browser.get('/account/sign-in').expect(200);
    await submit(browser, formFor(signIn.text, '/account/sign-in'), { login: 'alice', password: PASSWORD }).expect(303);
    const res = await browser.get('/no/where/deep').expect(404);
    expect(res.text).to.include('<h1>Not found</h1>');
    expect(res.text).to.include('<a href="/alice">alice</a>').and.include('href="/account/settings"');
    expect(res.headers['cache-control']).to.equal('private, no-cache');
  });

  it('answers HEAD as GET, without the page', async () => {
    const res = await app()
      .head('/no/where/deep')
      .expect(404)
      .expect('Content-Type', /^text\/html/);
    expect(res.text ?? '').to.equal('');
  });

  it('keeps the API’s JSON 404 on the API’s and the service’s own paths, and for a path asked for as .json', async () => {
    for (const path of [
      '/api/v3/nothing-here',
      '/api/v3/topics/1/nothing/here',
      '/api/v4/topics',
      '/oauth/nowhere',
      '/healthz/deep',
      '/metrics/deep',
      '/docs/nowhere/at/all',
      '/uploads/nowhere/at/all/here',
      '/avatars/a/b',
      '/no/where/deep.json',
    ]) {
      const res = await app().get(path).expect(404);
      expect(res.headers['content-type'], path).to.match(/^application\/json/);
      expect(res.body, path).to.deep.equal({ error: 'ResourceNotFound' });
    }
    const posted = await app().post('/api/v3/nothing-here').send({ a: 1 }).expect(404);
    expect(posted.body).to.deep.equal({ error: 'ResourceNotFound' });
  });

  it('still answers a known path asked with a method none of its routes serves with 405 and Allow', async () => {
    for (const [method, path] of [
      ['delete', '/account/sign-in'],
      ['put', '/topics/1'],
      ['delete', '/api/v3/topics'],
    ] as const) {
      const res = await app()[method](path).expect(405);
      expect(res.headers.allow, `${method} ${path}`).to.match(/GET/);
      expect(res.body, `${method} ${path}`).to.deep.equal({ error: 'MethodNotAllowed' });
    }
    const options = await app().options('/account/sign-in').expect(204);
    expect(options.headers.allow).to.match(/GET/).and.match(/POST/);
  });
});
