import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Koa from 'koa';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../src/server/app.js';
import { compressed, compressResponses, keepCompressed } from '../../src/adapters/api/compression.js';
import { FRONT_PAGE_TTL_MS, FrontPageCache } from '../../src/adapters/presentation/front-page-cache.js';
import { makeNode, makeTopic, makeUser, setNodeAccess } from '../support/builders.js';
import { appDependencies, testEnv } from '../support/env.js';
import { announcedFeed } from '../support/announced-feed.js';
import { startServerProcess } from '../support/server-process.js';

describe('the front-page cache (issue 18)', () => {
  describe('GET /api/v3/topics, signed out', () => {
    let cache: FrontPageCache;
    let cached: ReturnType<typeof supertest>;
    let plain: ReturnType<typeof supertest>;

    beforeEach(async () => {
      cache = new FrontPageCache(testEnv().persistence.events);
      await testEnv().persistence.events.ready();
      cached = supertest(createApp({ ...appDependencies(), frontPage: cache }).callback());
      plain = supertest(createApp(appDependencies()).callback());
    });

    afterEach(() => cache.close());

    it('answers exactly what the uncached path answers, for each type, node and page size', async () => {
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      for (let i = 0; i < 3; i++) await makeTopic(alice, ruby, `topic ${i}`);
      for (const query of ['', '?type=recent', '?type=no_reply&limit=2', `?node_id=${ruby}`, '?type=EXCELLENT']) {
        const first = await cached.get(`/api/v3/topics${query}`).expect(200);
        const again = await cached.get(`/api/v3/topics${query}`).expect(200);
        const fresh = await plain.get(`/api/v3/topics${query}`).expect(200);
        expect(first.headers['content-type']).to.match(/^application\/json/);
        expect(again.body, query).to.deep.equal(fresh.body);
        expect(first.body, query).to.deep.equal(fresh.body);
      }
      await cached.get('/api/v3/topics?node_id=999999').expect(404);
    });

    it('is compressed for clients that accept it, and sent as it is to the others', async () => {
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      for (let i = 0; i < 20; i++) await makeTopic(alice, ruby, `a topic with a title long enough to compress, number ${i}`);
      const fresh = await plain.get('/api/v3/topics').expect(200);
      for (const encoding of ['gzip', 'br']) {
        for (let i = 0; i < 2; i++) {
          const res = await cached.get('/api/v3/topics').set('Accept-Encoding', encoding).expect(200);
          expect(res.headers['content-encoding'], encoding).to.equal(encoding);
          expect(res.headers.vary).to.equal('Accept-Encoding');
          expect(res.body, encoding).to.deep.equal(fresh.body);
        }
      }
      const identity = await cached.get('/api/v3/topics').set('Accept-Encoding', 'identity').expect(200);
      expect(identity.headers).to.not.have.property('content-encoding');
      expect(identity.body).to.deep.equal(fresh.body);
    });

    it('compresses a cached page once for each encoding, and any other body for each response', async () => {
      const app = new Koa();
      const respond = async (body: Buffer, encoding: string) => {
        const request = new IncomingMessage(new Socket());
        Object.assign(request, { method: 'GET', url: '/', headers: { 'accept-encoding': encoding } });
        const ctx = app.createContext(request, new ServerResponse(request));
        await compressResponses()(ctx, async () => {
          ctx.type = 'application/json';
          ctx.body = body;
        });
        expect(ctx.response.get('Content-Encoding')).to.equal(encoding);
        return ctx.body as Buffer;
      };
      const page = Buffer.from(
        JSON.stringify({
          topics: Array.from({ length: 40 }, (_, id) => ({ id, title: `topic number ${id}, long enough to compress` })),
        }),
      );
      const cachedPage = keepCompressed(Buffer.from(page));
      const gzipped = await respond(cachedPage, 'gzip');
      expect(await respond(cachedPage, 'gzip'), 'the form kept').to.equal(gzipped);
      expect(gunzipSync(gzipped)).to.deep.equal(page);
      expect(await respond(cachedPage, 'br')).to.not.equal(gzipped);
      const other = await respond(page, 'gzip');
      expect(await respond(page, 'gzip'), 'a body not marked: compressed anew').to.not.equal(other);
      expect(other).to.deep.equal(gzipped);

      // Past 64 KiB compression runs off the event loop: concurrent requests share it, and its result is kept.
      const large = keepCompressed(Buffer.from('x'.repeat(200 * 1024)));
      const pending = compressed('br', large);
      expect(pending).to.be.instanceOf(Promise);
      expect(compressed('br', large), 'shared while under way').to.equal(pending);
      const done = await pending;
      expect(compressed('br', large), 'kept once made').to.equal(done);
      expect(brotliDecompressSync(done)).to.deep.equal(large);
    });

    it('shows a change committed anywhere within a second: a new topic, and a count no event announces', async function () {
      this.timeout(10_000);
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      const first = await makeTopic(alice, ruby, 'already there');
      await cached.get('/api/v3/topics').expect(200);

      const committed = Date.now();
      const created = await makeTopic(alice, ruby, 'just written');
      for (;;) {
        const ids = (await cached.get('/api/v3/topics').expect(200)).body.topics.map((t: { id: number }) => t.id);
        if (ids.includes(created)) break;
        expect(Date.now() - committed, 'stale for more than a second').to.be.below(1_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }

      // Likes and hits change no list's membership and send no event: the entry's lifetime bounds them.
      await cached.get('/api/v3/topics').expect(200);
      await testEnv().sql('update topics set likes_count = 42 where id = $1', [first]);
      const changed = Date.now();
      for (;;) {
        const topics = (await cached.get('/api/v3/topics').expect(200)).body.topics as { id: number; likes_count: number }[];
        if (topics.find((t) => t.id === first)?.likes_count === 42) break;
        expect(Date.now() - changed, 'stale for more than a second').to.be.below(1_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });

    it('is not what a signed-in user gets, nor later pages', async () => {
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      await makeTopic(alice, ruby, 'in ruby');
      await cached.get('/api/v3/topics').expect(200);
      await testEnv().sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [alice.id, ruby]);
      const mine = await cached.get('/api/v3/topics').set(alice.auth).expect(200);
      expect(mine.body.topics).to.deep.equal([]);
      expect((await cached.get('/api/v3/topics').expect(200)).body.topics).to.have.length(1);
      expect((await cached.get('/api/v3/topics?offset=1').expect(200)).body.topics).to.deep.equal([]);
    });
  });

  describe('the forum’s list pages, signed out (contract §21a)', () => {
    it('serves / and a node’s page from the cache (304 to its ETag), and drops them on a change made in another process', async function () {
      this.timeout(60_000);
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      await makeTopic(alice, ruby, 'already there');
      const other = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl!, LOG_LEVEL: 'info' });
      try {
        for (const path of ['/', `/topics/node${ruby}`]) {
          // (supertest, not fetch: the Fetch standard adds Cache-Control: no-cache to a conditional request.)
          const first = await supertest(other.url).get(path).expect(200);
          await supertest(other.url).get(path).set('If-None-Match', first.headers.etag!).expect(304);
          expect(first.text).to.include('already there');
        }
        // Written here, read there: the other process hears of it from the event feed and drops its pages.
        const committed = Date.now();
        await makeTopic(alice, ruby, 'just written');
        for (const path of ['/', `/topics/node${ruby}`]) {
          for (;;) {
            if ((await (await fetch(`${other.url}${path}`)).text()).includes('just written')) break;
            expect(Date.now() - committed, `${path} stale for more than a second`).to.be.below(1_000);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      } finally {
        await other.terminate();
      }
    });

    it('drops a topic from every cached page of another process within a second when its node stops being everyone’s (contract §23)', async function () {
      this.timeout(60_000);
      const alice = await makeUser('alice');
      const team = await makeNode('Team');
      await makeTopic(alice, team, 'soon private');
      const other = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
      try {
        const paths = ['/', `/topics/node${team}`, '/api/v3/topics', `/api/v3/topics?node_id=${team}`];
        for (const path of paths) {
          expect(await (await fetch(`${other.url}${path}`)).text(), path).to.include('soon private');
        }
        // Changed here, served there: the other process hears of it from the event feed and drops its pages.
        const changed = Date.now();
        await setNodeAccess(team, { read: { audience: 'members' } });
        for (const path of paths) {
          for (;;) {
            const res = await fetch(`${other.url}${path}`);
            if (!(await res.text()).includes('soon private')) break;
            expect(Date.now() - changed, `${path} stale for more than a second`).to.be.below(1_000);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      } finally {
        await other.terminate();
      }
    });

    it('is the same page made afresh, and never what a later page or a signed-in reader gets', async () => {
      const cache = new FrontPageCache(testEnv().persistence.events);
      await testEnv().persistence.events.ready();
      try {
        const cachedApp = supertest(createApp({ ...appDependencies(), frontPage: cache }).callback());
        const alice = await makeUser('alice');
        const ruby = await makeNode('Ruby');
        // The feed hears of the topics within a fifth of a second, and each emptying of the cache would race what is
        // counted below: wait until it has heard the 22nd.
        let heard = 0;
        const allHeard = new Promise<void>((resolve) => {
          const stop = testEnv().persistence.events.subscribe((events) => {
            heard += events.filter((event) => event.type === 'topic.created').length;
            if (heard >= 22) (stop(), resolve());
          });
        });
        for (let i = 0; i < 22; i++) await makeTopic(alice, ruby, `topic ${i}`);
        await allHeard;
        const fresh = await supertest(createApp(appDependencies()).callback()).get('/topics').expect(200);
        await cachedApp.get('/topics').expect(200);
        expect(cache.size).to.equal(1);
        const kept = await cachedApp.get('/topics').expect(200);
        expect(kept.text).to.equal(fresh.text);
        await cachedApp.get('/topics?page=2').expect(200);
        await cachedApp.get('/topics/999999').expect(404);
        expect(cache.size, 'later pages and topic pages are not kept').to.equal(1);
        const zh = await cachedApp.get('/topics').set('Accept-Language', 'zh-CN').expect(200);
        expect(zh.text).to.include('lang="zh-CN"');
        expect(cache.size, 'each language its own page').to.equal(2);
      } finally {
        cache.close();
      }
    });
  });

  describe('FrontPageCache', () => {
    const { feed, announce } = announcedFeed();

    it('reads once for concurrent misses of one key', async () => {
      const cache = new FrontPageCache<string>(feed);
      let reads = 0;
      const read = async () => {
        reads++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 'page';
      };
      expect(await Promise.all([cache.get('k', read), cache.get('k', read), cache.get('k', read)])).to.deep.equal([
        'page',
        'page',
        'page',
      ]);
      expect(await cache.get('k', read)).to.equal('page');
      expect(reads).to.equal(1);
    });

    it('serves the same bytes to every request, and keeps at most its limit of pages, expired ones going first', async () => {
      let now = 0;
      const cache = new FrontPageCache(feed, () => now, FRONT_PAGE_TTL_MS, 3);
      let reads = 0;
      const read = async () => (reads++, Buffer.from('page'));
      const first = await cache.get('a', read);
      expect(await cache.get('a', read), 'the same object').to.equal(first);
      await cache.get('b', read);
      await cache.get('c', read);
      await cache.get('d', read);
      expect(cache.size).to.equal(3);
      reads = 0;
      await cache.get('b', read);
      await cache.get('a', read);
      expect(reads, 'the oldest page (a) went to make room for d').to.equal(1);
      now += FRONT_PAGE_TTL_MS;
      await cache.get('e', read);
      expect(cache.size, 'the expired pages went first').to.equal(1);
    });

    it('keeps nothing read before a change, and forgets everything on one; other events change nothing', async () => {
      let now = 0;
      const cache = new FrontPageCache<string>(feed, () => now);
      let version = 1;
      const read = async () => `v${version}`;
      expect(await cache.get('k', read)).to.equal('v1');
      version = 2;
      announce('notification.created');
      expect(await cache.get('k', read)).to.equal('v1');
      announce('reply.created');
      expect(await cache.get('k', read)).to.equal('v2');
      // A read that began before a change is served to its callers but not kept.
      let release!: () => void;
      const slow = cache.get('s', () => new Promise<string>((resolve) => (release = () => resolve('read before'))));
      announce('topic.updated');
      version = 3;
      release();
      expect(await slow).to.equal('read before');
      expect(await cache.get('s', read)).to.equal('v3');
      // And nothing is kept past its lifetime.
      version = 4;
      now += FRONT_PAGE_TTL_MS;
      expect(await cache.get('k', read)).to.equal('v4');
    });
  });
});
