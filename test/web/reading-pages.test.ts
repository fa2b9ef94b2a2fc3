import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { loadConfig } from '../../src/config.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/**
 * The forum as pages (contract §21a): homeland's URLs, what the API shows the same reader, in both languages,
 * with conditional GETs. Driven over HTTP as a browser or a crawler asks.
 */
describe('the forum in a browser: reading (contract §21a)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    admin = await makeUser('root', 'admin');
    general = await makeNode('General');
  });

  /** The titles a list page links to, in order. */
  const titlesOn = (html: string) => [...html.matchAll(/<a class="title" href="\/topics\/\d+">([^<]*)<\/a>/g)].map((m) => m[1]);

  it('serves / and /topics as the active topics, pinned first, each a link to its page, in HTML with a canonical URL', async () => {
    const first = await makeTopic(alice, general, 'First topic');
    const second = await makeTopic(bob, general, 'Second topic');
    await api().post(`/api/v3/topics/${first}/action?type=suggest`).set(admin.auth).expect(200);
    for (const path of ['/', '/topics']) {
      const res = await api()
        .get(path)
        .expect(200)
        .expect('Content-Type', /text\/html/);
      expect(titlesOn(res.text), path).to.deep.equal(['First topic', 'Second topic']);
      expect(res.text).to.match(/<html lang="en">/);
      expect(res.text).to.include(`<link rel="canonical" href="http://forum.test${path}"/>`);
      expect(res.text).to.include(`href="/topics/${second}"`).and.include('href="/bob"');
    }
  });

  it('shows a topic with its body as the API renders it, its replies by floor with anchors #reply<n>, and a deleted reply as deleted', async () => {
    const topic = await makeTopic(alice, general, 'Mentions and floors', 'Hello @bob, **welcome**');
    await makeReply(bob, topic, 'first reply');
    const second = await makeReply(alice, topic, 'second reply, soon gone');
    await makeReply(bob, topic, 'third reply');
    await api().delete(`/api/v3/replies/${second}`).set(alice.auth).expect(200);
    const res = await api().get(`/topics/${topic}`).expect(200);
    expect(res.text).to.include('<h1>Mentions and floors</h1>');
    // The API's body_html, as it is: the mention is a link to the profile page.
    const shown = (await api().get(`/api/v3/topics/${topic}`).expect(200)).body.topic.body_html as string;
    expect(res.text).to.include(shown);
    expect(shown).to.include('href="/bob"');
    expect(res.text).to.match(/id="reply1"[\s\S]*first reply/);
    expect(res.text).to.match(/id="reply2"[\s\S]*This reply was deleted\./);
    expect(res.text).not.to.include('second reply, soon gone');
    expect(res.text).to.match(/id="reply3"[\s\S]*third reply/);
    // The mention's link leads to a page.
    const profile = await api().get('/bob').expect(200);
    expect(profile.text).to.include('<h1>bob</h1>');
  });

  it('keeps out of every list what the API keeps out, and answers 404 for what nobody may read (held, deleted)', async () => {
    const kept = await makeTopic(alice, general, 'Kept');
    const held = await makeTopic(alice, general, 'Held for review');
    const deleted = await makeTopic(alice, general, 'Deleted');
    const banned = await makeTopic(alice, general, 'Banned');
    await testEnv().sql("update topics set visibility = 'held' where id = $1", [held]);
    await api().delete(`/api/v3/topics/${deleted}`).set(alice.auth).expect(200);
    await api().post(`/api/v3/topics/${banned}/ban`).set(admin.auth).expect(200);

    const apiTitles = ((await api().get('/api/v3/topics').expect(200)).body.topics as { title: string }[]).map((t) => t.title);
    const pageTitles = titlesOn((await api().get('/topics').expect(200)).text);
    expect(pageTitles).to.deep.equal(apiTitles);
    expect(pageTitles).to.include('Kept').and.not.include('Held for review').and.not.include('Deleted');

    await api().get(`/topics/${held}`).expect(404);
    await api().get(`/topics/${deleted}`).expect(404);
    // A banned topic is out of the lists where the API leaves it out, and shown by its URL where the API shows it.
    const bannedByApi = await api().get(`/api/v3/topics/${banned}`);
    await api().get(`/topics/${banned}`).expect(bannedByApi.status);
    void kept;
  });

  it('pages a list with ?page=n, and a topic’s replies 100 a page, floors counting on', async function () {
    this.timeout(30_000);
    for (let i = 1; i <= 25; i++) await makeTopic(alice, general, `Topic ${String(i).padStart(2, '0')}`);
    const one = await api().get('/topics').expect(200);
    expect(titlesOn(one.text)).to.have.length(20);
    expect(one.text).to.include('href="/topics?page=2"');
    const two = await api().get('/topics?page=2').expect(200);
    expect(titlesOn(two.text)).to.have.length(5);
    expect(two.text).to.include('rel="prev"').and.not.include('rel="next"');
    expect(new Set([...titlesOn(one.text), ...titlesOn(two.text)]).size).to.equal(25);
    await api().get('/topics?page=abc').expect(200);

    const topic = await makeTopic(alice, general, 'Long thread');
    await testEnv().sql(
      `insert into replies (topic_id, user_id, body, body_html, created_at, updated_at)
       select $1, $2, 'reply ' || n, '<p>reply ' || n || '</p>', now(), now() from generate_series(1, 105) n`,
      [topic, bob.id],
    );
    const last = await api().get(`/topics/${topic}?page=2`).expect(200);
    expect(last.text)
      .to.match(/id="reply101"[\s\S]*reply 101/)
      .and.match(/id="reply105"/);
    expect(last.text).not.to.include('id="reply100"');
  });

  it('serves a node’s topics at /topics/node<id>, the nodes, the members, a profile and its lists; unknown ones are a 404 page', async () => {
    const other = await makeNode('Other');
    await makeTopic(alice, general, 'In general');
    await makeTopic(bob, other, 'Elsewhere');
    const node = await api().get(`/topics/node${other}`).expect(200);
    expect(titlesOn(node.text)).to.deep.equal(['Elsewhere']);
    expect((await api().get('/nodes').expect(200)).text).to.include(`href="/topics/node${general}"`);
    expect((await api().get('/users').expect(200)).text).to.include('href="/alice"');
    const topics = await api().get('/alice/topics').expect(200);
    expect(titlesOn(topics.text)).to.deep.equal(['In general']);
    for (const tab of ['replies', 'favorites', 'followers', 'following']) await api().get(`/alice/${tab}`).expect(200);
    for (const path of ['/nobody', '/topics/node999999', '/topics/999999', '/topics/abc', '/nobody/topics']) {
      const res = await api()
        .get(path)
        .expect(404)
        .expect('Content-Type', /text\/html/);
      expect(res.text, path).to.include('Not found');
    }
  });

  it('speaks Simplified Chinese by Accept-Language and ?lang=, with a link to the page in the other language', async () => {
    await makeTopic(alice, general, 'Bilingual');
    const zh = await api().get('/topics').set('Accept-Language', 'zh-CN,zh;q=0.9').expect(200);
    expect(zh.text).to.include('<html lang="zh-CN">').and.include('话题');
    expect(zh.text).to.include('href="/topics?lang=en"');
    const en = await api().get('/topics?lang=en').set('Accept-Language', 'zh-CN').expect(200);
    expect(en.text).to.include('<html lang="en">');
    // The nodes in no section are under the page's own word for nodes (the API names them "Nodes").
    const nodes = await api().get('/nodes?lang=zh-CN').expect(200);
    expect(nodes.text).to.include('<h2>节点</h2>').and.not.include('<h2>Nodes</h2>');
  });

  it('answers an unchanged page with 304 to its ETag, and a changed one with the new page', async () => {
    const topic = await makeTopic(alice, general, 'Conditional');
    const first = await api().get(`/topics/node${general}`).expect(200);
    // A page differs by its reader's session and language (and, once compressed, by the encoding asked for).
    expect(first.headers.vary).to.equal('Cookie, Accept-Language, Accept-Encoding');
    const etag = first.headers.etag!;
    expect(etag).to.be.a('string');
    expect(first.headers['cache-control']).to.equal('public, no-cache');
    await api().get(`/topics/node${general}`).set('If-None-Match', etag).expect(304);
    await makeReply(bob, topic, 'news');
    await api().get(`/topics/node${general}`).set('If-None-Match', etag).expect(200);
  });

  it('searches with the API’s search, and shows its excerpts', async () => {
    await makeTopic(alice, general, 'Searchable pancakes', 'All about pancakes');
    const res = await api().get('/search?q=pancakes').expect(200);
    expect(titlesOn(res.text)).to.deep.equal(['Searchable pancakes']);
    expect(res.text).to.include('<mark>');
    const empty = await api().get('/search').expect(200);
    expect(titlesOn(empty.text)).to.deep.equal([]);
    // Words the search refuses are said above its form, as a refused form is, and the form keeps them.
    const long = 'pancakes '.repeat(30);
    const refused = await api().get(`/search?q=${encodeURIComponent(long)}`).expect(400);
    expect(refused.text).to.match(/<p class="alert" role="alert">[^<]*200 characters/);
    expect(refused.text).to.include(`value="${long.trim()}"`);
    expect(titlesOn(refused.text)).to.deep.equal([]);
  });

  it('tells search engines and link previews what a page is: description, OpenGraph, a feed, and a topic as JSON-LD', async () => {
    const topic = await makeTopic(alice, general, 'Structured </script><b>data</b>', 'The **first** words of the topic');
    await makeReply(bob, topic, 'a first reply');
    const res = await api().get(`/topics/${topic}`).expect(200);
    expect(res.text).to.include('<meta name="description" content="The first words of the topic"/>');
    expect(res.text).to.include('<meta property="og:type" content="article"/>');
    expect(res.text).to.include(`<meta property="og:url" content="http://forum.test/topics/${topic}"/>`);
    const json = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(res.text);
    expect(json, 'a JSON-LD block, with no "<" in it').to.not.equal(null);
    const data = JSON.parse(json![1]!);
    expect(data).to.deep.include({ '@type': 'DiscussionForumPosting', headline: 'Structured </script><b>data</b>' });
    expect(data.author).to.deep.include({ name: 'alice', url: 'http://forum.test/alice' });
    expect(data.comment).to.have.length(1);
    expect(data.comment[0]).to.deep.include({ text: 'a first reply', url: `http://forum.test/topics/${topic}#reply1` });
    const list = await api().get(`/topics/node${general}?page=2`).expect(200);
    expect(list.text).to.include(`<link rel="canonical" href="http://forum.test/topics/node${general}?page=2"/>`);
    expect(list.text).to.include(
      `<link rel="alternate" type="application/rss+xml" title="General" href="/topics/node${general}/feed"/>`,
    );
  });

  it('is where a mail’s “View the topic” link (TOPIC_URL’s default) and a mention’s link lead', async () => {
    const topic = await makeTopic(alice, general, 'Mailed about', 'Hello @bob');
    const { mail } = loadConfig({ PUBLIC_URL: 'http://forum.test', DATABASE_URL: 'postgres://x@127.0.0.1/x' });
    const link = new URL(mail.topicUrl.replace('{id}', String(topic)));
    expect(link.pathname).to.equal(`/topics/${topic}`);
    expect((await api().get(link.pathname).expect(200)).text).to.include('<h1>Mailed about</h1>');
    const mention = /href="([^"]*bob)"/.exec((await api().get(`/api/v3/topics/${topic}`).expect(200)).body.topic.body_html)!;
    expect((await api().get(new URL(mention[1]!, 'http://forum.test').pathname).expect(200)).text).to.include('<h1>bob</h1>');
  });

  it('weighs little: a topic with 20 replies under 40 KB of HTML compressed, its style sheets under 15 KB, no script or font', async () => {
    const sentence = 'Connection pooling matters more than the number of CPU cores, and logs want a request id. ';
    const topic = await makeTopic(alice, general, 'A weighed topic', sentence.repeat(20));
    for (let i = 0; i < 20; i++) await makeReply(i % 2 ? alice : bob, topic, `${sentence.repeat(4)} (${i})`);
    const res = await api().get(`/topics/${topic}`).expect(200);
    const compressed = gzipSync(res.text, { level: 6 }).length;
    expect(compressed, `${compressed} bytes compressed`).to.be.below(40_000);
    const sheets = [...res.text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
    expect(sheets, 'one style sheet, linked').to.have.length(1);
    const sheet = await api().get(sheets[0]!).expect(200).expect('Content-Type', 'text/css; charset=utf-8');
    expect(sheet.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(gzipSync(sheet.text).length).to.be.below(15_000);
    expect(res.headers['content-security-policy']).to.include("style-src 'self'");
    expect(res.text).not.to.match(/<script(?![^>]*application\/ld\+json)/);
    expect(res.text).not.to.match(/@font-face|fonts\.googleapis/);
  });

  it('refuses a login that is a page of the forum, in any case, over the API and forumctl alike', async () => {
    for (const login of ['topics', 'Nodes', 'search', 'robots.txt', 'setting']) {
      const res = await api()
        .post('/api/v3/users')
        .send({ login, email: `${login}@example.com`, password: 'correct horse battery' })
        .expect(400);
      expect(res.body.message, login).to.include('Login is reserved');
    }
    const made = await forumctl(['users', 'create', 'users', '--email', 'u@example.com', '--password', 'correct horse battery']);
    expect(made.code).to.not.equal(0);
    expect(made.stderr).to.include('Login is reserved');
  });

  it('moves homeland’s account paths to ours for good (301)', async () => {
    for (const [from, to] of [
      ['/account/sign_in', '/account/sign-in'],
      ['/account/sign_up', '/account/sign-up'],
      ['/account/password/new', '/account/password/forgot'],
      ['/setting', '/account/settings'],
    ]) {
      const res = await api().get(from!).expect(301);
      expect(res.headers.location).to.equal(to);
    }
  });
});
