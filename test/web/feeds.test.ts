import { Readable } from 'node:stream';
import { expect } from 'chai';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import type supertest from 'supertest';
import { type Element, xml2js } from 'xml-js';
import { api, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { PUBLIC_URL } from '../support/env.js';
import { testEnv } from '../support/env.js';

/**
 * Contract §21a for feed readers and search engines: the feeds at homeland's paths (RSS 2.0, Atom with
 * ?format=atom), robots.txt and the sitemap index with its files. Nothing a signed-out reader cannot see is in any
 * of them. Driven over HTTP as a feed reader or a crawler asks, every document read with a real XML parser.
 */

/** A response's text, whatever its type (supertest keeps only text/* and JSON as text). */
function textOf(res: supertest.Response): string {
  return typeof res.text === 'string' && res.text !== '' ? res.text : Buffer.from(res.body as Buffer).toString('utf8');
}

/** Asks for an XML document and keeps its bytes. */
const getXml = (path: string) =>
  api()
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/** The XML document, parsed (throws on anything that is not well-formed). */
function parse(xml: string): Element {
  return xml2js(xml, { compact: false }) as Element;
}
const children = (element: Element, name: string): Element[] =>
  (element.elements ?? []).filter((child) => child.type === 'element' && child.name === name);
const child = (element: Element, name: string): Element => {
  const [found] = children(element, name);
  if (!found) throw new Error(`no <${name}> in <${element.name}>`);
  return found;
};
/** An element's text: its text and CDATA sections, joined. */
const text = (element: Element): string =>
  (element.elements ?? []).map((node) => String(node.type === 'cdata' ? node.cdata : (node.text ?? ''))).join('');

interface RssItem {
  title: string;
  link: string;
  guid: string;
  permaLink: string | undefined;
  pubDate: string;
  author: string;
  content: string;
}
function rssItems(xml: string): { channel: Element; items: RssItem[] } {
  const rss = child(parse(xml), 'rss');
  expect(rss.attributes?.version).to.equal('2.0');
  const channel = child(rss, 'channel');
  const items = children(channel, 'item').map((item) => ({
    title: text(child(item, 'title')),
    link: text(child(item, 'link')),
    guid: text(child(item, 'guid')),
    permaLink: child(item, 'guid').attributes?.isPermaLink as string | undefined,
    pubDate: text(child(item, 'pubDate')),
    author: text(child(item, 'author')),
    content: text(child(item, 'content:encoded')),
  }));
  return { channel, items };
}
const titlesOf = (xml: string) => rssItems(xml).items.map((item) => item.title);

async function sitemapUrls(path: string): Promise<{ url: string; lastmod?: string }[]> {
  const res = await getXml(path).expect(200).expect('Content-Type', 'application/xml; charset=utf-8');
  return parseSitemap(Readable.from([textOf(res)]));
}
async function sitemapFiles(): Promise<string[]> {
  const res = await getXml('/sitemap.xml').expect(200).expect('Content-Type', 'application/xml; charset=utf-8');
  return (await parseSitemapIndex(Readable.from([textOf(res)]))).map((item) => item.url);
}
const thisMonth = () => new Date().toISOString().slice(0, 7);

describe('the forum for feed readers and search engines: feeds, robots.txt, the sitemap (contract §21a)', () => {
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

  /** Topics a signed-out reader cannot find in the lists, one of each kind, and one that they can. */
  async function hiddenAndKept() {
    const secret = await makeNode('Secret', { hidden: true });
    const kept = await makeTopic(alice, general, 'Kept');
    const held = await makeTopic(alice, general, 'Held for review');
    const deleted = await makeTopic(alice, general, 'Deleted');
    const banned = await makeTopic(alice, general, 'Banned');
    const inSecret = await makeTopic(alice, secret, 'In a hidden node');
    await testEnv().sql("update topics set visibility = 'held' where id = $1", [held]);
    await api().delete(`/api/v3/topics/${deleted}`).set(alice.auth).expect(200);
    await api().post(`/api/v3/topics/${banned}/ban`).set(admin.auth).expect(200);
    return { secret, kept, held, deleted, banned, inSecret };
  }

  it('serves the newest topics as RSS 2.0 at /topics/feed: title, absolute link, guid, date, author, body_html', async () => {
    const first = await makeTopic(alice, general, 'First & <foremost>', 'Hello @bob, **welcome**');
    const second = await makeTopic(bob, general, 'Second topic', 'A `code` body');
    const res = await getXml('/topics/feed').expect(200).expect('Content-Type', 'application/rss+xml; charset=utf-8');
    const xml = textOf(res);
    const { channel, items } = rssItems(xml);
    expect(text(child(channel, 'link'))).to.equal(`${PUBLIC_URL}/topics/last`);
    expect(items.map((item) => item.title)).to.deep.equal(['Second topic', 'First & <foremost>']);
    const shown = (await api().get(`/api/v3/topics/${first}`).expect(200)).body.topic as {
      body_html: string;
      created_at: string;
    };
    expect(items[1]).to.deep.include({
      link: `${PUBLIC_URL}/topics/${first}`,
      guid: `${PUBLIC_URL}/topics/${first}`,
      permaLink: 'true',
      author: 'alice',
      content: shown.body_html,
    });
    expect(new Date(items[1]!.pubDate).getTime()).to.equal(Math.floor(new Date(shown.created_at).getTime() / 1000) * 1000);
    expect(items[0]).to.deep.include({ link: `${PUBLIC_URL}/topics/${second}`, author: 'bob' });
    expect(items[1]!.content).to.include('href="/bob"');
  });

  it('serves the same items as Atom with ?format=atom', async () => {
    const topic = await makeTopic(alice, general, 'Atom topic', 'An **Atom** body');
    const res = await getXml('/topics/feed?format=atom')
      .expect(200)
      .expect('Content-Type', 'application/atom+xml; charset=utf-8');
    const feed = child(parse(textOf(res)), 'feed');
    expect(feed.attributes?.xmlns).to.equal('http://www.w3.org/2005/Atom');
    const entries = children(feed, 'entry');
    expect(entries).to.have.length(1);
    const entry = entries[0]!;
    const bodyHtml = (await api().get(`/api/v3/topics/${topic}`).expect(200)).body.topic.body_html as string;
    expect(text(child(entry, 'title'))).to.equal('Atom topic');
    expect(text(child(entry, 'id'))).to.equal(`${PUBLIC_URL}/topics/${topic}`);
    expect(child(entry, 'link').attributes?.href).to.equal(`${PUBLIC_URL}/topics/${topic}`);
    expect(text(child(child(entry, 'author'), 'name'))).to.equal('alice');
    expect(text(child(entry, 'content'))).to.equal(bodyHtml);
    expect(Number.isNaN(Date.parse(text(child(entry, 'published'))))).to.equal(false);
  });

  it('gives the 20 newest topics, newest first', async function () {
    this.timeout(30_000);
    for (let i = 1; i <= 22; i++) await makeTopic(alice, general, `Topic ${String(i).padStart(2, '0')}`);
    const titles = titlesOf(textOf(await getXml('/topics/feed').expect(200)));
    expect(titles).to.have.length(20);
    expect(titles[0]).to.equal('Topic 22');
    expect(titles[19]).to.equal('Topic 03');
  });

  it('serves a node’s feed and a member’s feed; an unknown or hidden node, or an unknown member, is a 404', async () => {
    const other = await makeNode('Other');
    await makeTopic(alice, general, 'In general');
    await makeTopic(bob, other, 'Elsewhere by bob');
    await makeTopic(alice, other, 'Elsewhere by alice');
    const node = textOf(
      await getXml(`/topics/node${other}/feed`)
        .expect(200)
        .expect('Content-Type', /application\/rss\+xml/),
    );
    expect(titlesOf(node)).to.deep.equal(['Elsewhere by alice', 'Elsewhere by bob']);
    expect(text(child(rssItems(node).channel, 'title'))).to.include('Other');
    const member = textOf(await getXml('/alice/feed').expect(200));
    expect(titlesOf(member)).to.deep.equal(['Elsewhere by alice', 'In general']);
    expect(text(child(rssItems(member).channel, 'link'))).to.equal(`${PUBLIC_URL}/alice/topics`);
    const atom = textOf(
      await getXml('/alice/feed?format=atom')
        .expect(200)
        .expect('Content-Type', /application\/atom\+xml/),
    );
    expect(children(child(parse(atom), 'feed'), 'entry')).to.have.length(2);

    const secret = await makeNode('Secret', { hidden: true });
    for (const path of ['/topics/node999999/feed', `/topics/node${secret}/feed`, '/topics/nodeabc/feed', '/nobody/feed']) {
      await api().get(path).expect(404);
    }
  });

  it('keeps out of every feed what a signed-out reader does not find: held, deleted, banned, in a hidden node', async () => {
    const { secret } = await hiddenAndKept();
    expect(titlesOf(textOf(await getXml('/topics/feed').expect(200)))).to.deep.equal(['Kept']);
    expect(titlesOf(textOf(await getXml(`/topics/node${general}/feed`).expect(200)))).to.deep.equal(['Kept']);
    // Banned topics live in NoPoint, a hidden node: its feed is not there, as its page is not.
    const [noPoint] = await testEnv().sql<{ id: number }>("select id from nodes where name = 'NoPoint'");
    await api().get(`/topics/node${noPoint!.id}/feed`).expect(404);
    await api().get(`/topics/node${secret}/feed`).expect(404);
    // A member's feed shows what their topics page shows a signed-out reader (the API's list of their topics).
    const member = titlesOf(textOf(await getXml('/alice/feed').expect(200)));
    const apiList = ((await api().get('/api/v3/users/alice/topics').expect(200)).body.topics as { title: string }[]).map(
      (topic) => topic.title,
    );
    expect(member).to.deep.equal(apiList);
    expect(member).to.include('Kept').and.not.include('Held for review').and.not.include('Deleted');
  });

  it('keeps a title with "]]>" in it whole, and well-formed XML', async () => {
    const title = 'a]]>b]]><evil/>c]]>';
    const topic = await makeTopic(alice, general, title, 'Text with ]]> and ]]> again');
    const rss = rssItems(textOf(await getXml('/topics/feed').expect(200))).items;
    expect(rss.map((item) => item.title)).to.deep.equal([title]);
    const bodyHtml = (await api().get(`/api/v3/topics/${topic}`).expect(200)).body.topic.body_html as string;
    expect(rss[0]!.content).to.equal(bodyHtml);
    const atom = child(parse(textOf(await getXml('/topics/feed?format=atom').expect(200))), 'feed');
    expect(text(child(children(atom, 'entry')[0]!, 'title'))).to.equal(title);
  });

  it('answers an unchanged feed, sitemap or robots.txt with 304 to its ETag, and a changed one with the new document', async () => {
    await makeTopic(alice, general, 'Conditional');
    for (const path of [
      '/topics/feed',
      '/topics/feed?format=atom',
      '/robots.txt',
      '/sitemap.xml',
      `/sitemap/topics-${thisMonth()}.xml`,
    ]) {
      const first = await getXml(path).expect(200);
      const etag = first.headers.etag!;
      expect(etag, path).to.be.a('string');
      expect(first.headers['cache-control'], path).to.equal('public, no-cache');
      await api().get(path).set('If-None-Match', etag).expect(304);
    }
    const before = (await getXml('/topics/feed').expect(200)).headers.etag!;
    await makeTopic(bob, general, 'News');
    await api().get('/topics/feed').set('If-None-Match', before).expect(200);
  });

  it('serves robots.txt: everything but accounts, OAuth, the API and search, and where the sitemap is', async () => {
    const res = await api().get('/robots.txt').expect(200).expect('Content-Type', 'text/plain; charset=utf-8');
    expect(res.text).to.equal(
      [
        'User-agent: *',
        'Disallow: /account/',
        'Disallow: /oauth/',
        'Disallow: /api/',
        'Disallow: /search',
        '',
        `Sitemap: ${PUBLIC_URL}/sitemap.xml`,
        '',
      ].join('\n'),
    );
  });

  it('serves the sitemap index: a file per month with a listed topic, the nodes, the members', async () => {
    const march = await makeTopic(alice, general, 'From March 2024');
    const marchToo = await makeTopic(bob, general, 'Also from March 2024');
    const recent = await makeTopic(alice, general, 'From this month');
    // January 2023 has only a topic nobody may read; May 2024, only one in a hidden node: neither is listed.
    const { kept, held, deleted, banned, inSecret } = await hiddenAndKept();
    await testEnv().sql("update topics set created_at = '2024-03-31T23:59:59Z' where id = $1", [march]);
    await testEnv().sql("update topics set created_at = '2024-03-01T00:00:00Z' where id = $1", [marchToo]);
    await testEnv().sql("update topics set created_at = '2023-01-10T00:00:00Z' where id = $1", [deleted]);
    await testEnv().sql("update topics set created_at = '2024-05-10T00:00:00Z' where id = $1", [inSecret]);

    const files = await sitemapFiles();
    const months = files.filter((file) => file.includes('/sitemap/topics-'));
    expect(months).to.deep.equal([`${PUBLIC_URL}/sitemap/topics-2024-03.xml`, `${PUBLIC_URL}/sitemap/topics-${thisMonth()}.xml`]);
    expect(files).to.include(`${PUBLIC_URL}/sitemap/nodes.xml`).and.include(`${PUBLIC_URL}/sitemap/users.xml`);

    const inMarch = await sitemapUrls('/sitemap/topics-2024-03.xml');
    expect(inMarch.map((item) => item.url)).to.deep.equal([`${PUBLIC_URL}/topics/${marchToo}`, `${PUBLIC_URL}/topics/${march}`]);
    const [row] = await testEnv().sql<{ last_active_at: Date }>('select last_active_at from topics where id = $1', [march]);
    expect(new Date(inMarch[1]!.lastmod!).getTime()).to.equal(new Date(row!.last_active_at).getTime());

    const current = (await sitemapUrls(`/sitemap/topics-${thisMonth()}.xml`)).map((item) => item.url);
    expect(current).to.deep.equal([`${PUBLIC_URL}/topics/${recent}`, `${PUBLIC_URL}/topics/${kept}`]);
    for (const id of [held, banned]) expect(current).not.to.include(`${PUBLIC_URL}/topics/${id}`);
    // A month with nothing listed has no file (the protocol's file lists one URL at least).
    for (const path of [
      '/sitemap/topics-2023-01.xml',
      '/sitemap/topics-2024-05.xml',
      '/sitemap/topics-2024-13.xml',
      '/sitemap/topics-24-03.xml',
      '/sitemap/topics-0024-03.xml',
      '/sitemap/users-2.xml',
      '/sitemap/users-0.xml',
    ]) {
      await api().get(path).expect(404);
    }
  });

  it('lists the nodes anyone may open and the active members', async () => {
    const secret = await makeNode('Secret', { hidden: true });
    await testEnv().sql("update users set role = 'blocked' where id = $1", [bob.id]);
    const nodes = (await sitemapUrls('/sitemap/nodes.xml')).map((item) => item.url);
    expect(nodes).to.include(`${PUBLIC_URL}/topics/node${general}`).and.not.include(`${PUBLIC_URL}/topics/node${secret}`);
    const users = (await sitemapUrls('/sitemap/users.xml')).map((item) => item.url);
    expect(users).to.deep.equal([`${PUBLIC_URL}/alice`, `${PUBLIC_URL}/root`]);
  });

  it('pieces the members by 50,000 ids when there are more', async () => {
    await testEnv().sql("select setval('users_id_seq', 50000)");
    const later = await makeUser('later');
    expect(later.id).to.equal(50001);
    const files = (await sitemapFiles()).filter((file) => file.includes('/sitemap/users'));
    expect(files).to.deep.equal([`${PUBLIC_URL}/sitemap/users-1.xml`, `${PUBLIC_URL}/sitemap/users-2.xml`]);
    expect((await sitemapUrls('/sitemap/users-1.xml')).map((item) => item.url)).to.include(`${PUBLIC_URL}/alice`);
    expect((await sitemapUrls('/sitemap/users-2.xml')).map((item) => item.url)).to.deep.equal([`${PUBLIC_URL}/later`]);
    await api().get('/sitemap/users-3.xml').expect(404);
  });

  it('lists only the files with something in them: a forum with nothing yet has an empty index', async () => {
    await testEnv().sql("update users set state = 'left' where login <> 'system'");
    await testEnv().sql('update nodes set hidden = true');
    const files = await sitemapFiles();
    expect(files).to.deep.equal([]);
    for (const path of ['/sitemap/nodes.xml', '/sitemap/users.xml', `/sitemap/topics-${thisMonth()}.xml`]) {
      await api().get(path).expect(404);
    }
  });
});
