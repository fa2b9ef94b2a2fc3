import sharp from 'sharp';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { checkedApi } from '../support/openapi.js';
import { createApp } from '../../src/server/app.js';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { appDependencies, PUBLIC_URL, testEnv } from '../support/env.js';

/** What real clients of homeland's API call beyond the source contract (contract §6, §7). */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe('homeland API extras', () => {
  let alice: TestUser;
  let bob: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    general = await makeNode('General');
  });

  describe('topics and replies', () => {
    it('GET /topics/.json is a topic with a blank id (404), not the topic list', async () => {
      await makeTopic(alice, general);
      const res = await api().get('/api/v3/topics/.json').expect(404);
      expect(res.body).to.deep.equal({ error: 'ResourceNotFound' });
    });

    it('PUT and PATCH update a topic and a reply as POST does', async () => {
      const topicId = await makeTopic(alice, general, 'old');
      const fields = { body: 'b', node_id: String(general) };
      const put = await api()
        .put(`/api/v3/topics/${topicId}`)
        .set(alice.auth)
        .send({ ...fields, title: 'put' })
        .expect(200);
      expect(put.body.topic.title).to.equal('put');
      const patch = await api()
        .patch(`/api/v3/topics/${topicId}.json`)
        .set(alice.auth)
        .type('form')
        .send({ ...fields, title: 'patched' });
      expect(patch.status).to.equal(200);
      expect(patch.body.topic.title).to.equal('patched');
      const replyId = await makeReply(bob, topicId, 'first');
      for (const method of ['put', 'patch'] as const) {
        const res = await api()[method](`/api/v3/replies/${replyId}`).set(bob.auth).send({ body: method }).expect(200);
        expect(res.body.reply.body).to.equal(method);
      }
      await api().put(`/api/v3/replies/${replyId}`).set(alice.auth).send({ body: 'not hers' }).expect(403);
    });

    it('HEAD /topics/:id counts no hit and marks nothing read', async () => {
      const topicId = await makeTopic(alice, general);
      await makeReply(bob, topicId, 'a reply for alice');
      await api().head(`/api/v3/topics/${topicId}`).set(alice.auth).expect(200);
      await api().head(`/api/v3/topics/${topicId}`).expect(200);
      await api().head('/api/v3/topics/999999').expect(404);
      const [row] = await testEnv().sql<{ hits: number; unread: number }>(
        `select hits, (select count(*)::int from notifications where user_id = $2 and read_at is null) as unread
         from topics where id = $1`,
        [topicId, alice.id],
      );
      expect(row).to.deep.equal({ hits: 0, unread: 1 });
      await api().get(`/api/v3/topics/${topicId}`).expect(200);
      const [after] = await testEnv().sql<{ hits: number }>('select hits from topics where id = $1', [topicId]);
      expect(after!.hits).to.equal(1);
    });
  });

  describe('POST and DELETE /devices', () => {
    const devices = () =>
      testEnv().sql<{ user_id: number; platform: string; token: string }>(
        'select user_id, platform, token from devices order by id',
      );

    it("register and forget the caller's push device, idempotently", async () => {
      await api().post('/api/v3/devices').set(alice.auth).send({ platform: 'ios', token: 'apns-1' }).expect(200, { ok: 1 });
      await api().post('/api/v3/devices').set(alice.auth).type('form').send({ platform: 'iOS', token: 'apns-1' }).expect(200);
      await api().post('/api/v3/devices.json').set(alice.auth).send({ platform: 'android', token: 'fcm-1' }).expect(200);
      expect(await devices()).to.deep.equal([
        { user_id: alice.id, platform: 'ios', token: 'apns-1' },
        { user_id: alice.id, platform: 'android', token: 'fcm-1' },
      ]);
      // Bob cannot forget Alice's device; Alice can, twice.
      await api().delete('/api/v3/devices').set(bob.auth).send({ platform: 'ios', token: 'apns-1' }).expect(200);
      expect(await devices()).to.have.length(2);
      await api().delete('/api/v3/devices?platform=ios&token=apns-1').set(alice.auth).expect(200, { ok: 1 });
      await api().delete('/api/v3/devices?platform=ios&token=apns-1').set(alice.auth).expect(200, { ok: 1 });
      expect(await devices()).to.deep.equal([{ user_id: alice.id, platform: 'android', token: 'fcm-1' }]);
    });

    it('moves a device to whoever signs in on it next', async () => {
      await api().post('/api/v3/devices').set(alice.auth).send({ platform: 'android', token: 'shared' }).expect(200);
      await api().post('/api/v3/devices').set(bob.auth).send({ platform: 'android', token: 'shared' }).expect(200);
      expect(await devices()).to.deep.equal([{ user_id: bob.id, platform: 'android', token: 'shared' }]);
    });

    it('answers 401 anonymously and 400 for a missing or unknown platform or token', async () => {
      await api().post('/api/v3/devices').send({ platform: 'ios', token: 't' }).expect(401);
      for (const body of [
        { token: 't' },
        { platform: 'windows', token: 't' },
        { platform: 'ios' },
        { platform: 'ios', token: ' ' },
      ]) {
        const res = await api().post('/api/v3/devices').set(alice.auth).send(body).expect(400);
        expect(res.body.error, JSON.stringify(body)).to.equal('ParameterInvalid');
      }
      const long = await api()
        .post('/api/v3/devices')
        .set(alice.auth)
        .send({ platform: 'ios', token: 'x'.repeat(256) });
      expect(long.status).to.equal(400);
    });
  });

  describe('GET /users', () => {
    it('lists the most active users: most replies in the last year, then most topics; blocked users left out', async () => {
      const carol = await makeUser('carol');
      const dave = await makeUser('dave');
      const banned = await makeUser('banned', 'blocked');
      const topicId = await makeTopic(alice, general);
      await makeTopic(alice, general);
      await makeTopic(dave, general);
      for (let i = 0; i < 3; i++) await makeReply(bob, topicId);
      for (let i = 0; i < 2; i++) await makeReply(carol, topicId);
      const davesReply = await makeReply(dave, topicId);
      // What is older than twelve months does not count, and blocked users never show, however active.
      await testEnv().sql(
        `insert into user_reply_months (user_id, month, replies)
         values ($1, date_trunc('month', now() - interval '14 months'), 9), ($2, date_trunc('month', now()), 50)`,
        [carol.id, banned.id],
      );
      const res = await api().get('/api/v3/users').expect(200);
      const logins = res.body.users.map((user: { login: string }) => user.login);
      expect(logins).to.deep.equal(['bob', 'carol', 'dave', 'alice']);
      expect(res.body.users[0]).to.have.all.keys('id', 'login', 'name', 'avatar_url', 'abilities');
      // A deleted reply leaves the count: dave (one topic) falls behind alice (two).
      await api().delete(`/api/v3/replies/${davesReply}`).set(dave.auth).expect(200);
      const after = (await api().get('/api/v3/users.json?limit=3').expect(200)).body.users;
      expect(after.map((user: { login: string }) => user.login)).to.deep.equal(['bob', 'carol', 'alice']);
    });

    it('takes limit 1..100 (default 20)', async () => {
      expect((await api().get('/api/v3/users?limit=1').expect(200)).body.users).to.have.length(1);
      for (const limit of ['0', '101', 'abc']) {
        const res = await api().get(`/api/v3/users?limit=${limit}`).expect(400);
        expect(res.body.error).to.equal('ParameterInvalid');
      }
    });
  });

  describe('GET /users/:login/blocked', () => {
    it("shows the caller's own blocked users in the order they were blocked, to nobody else", async () => {
      const carol = await makeUser('carol');
      await api().post('/api/v3/users/carol/block').set(alice.auth).expect(200);
      await api().post('/api/v3/users/bob/block').set(alice.auth).expect(200);
      const res = await api().get('/api/v3/users/alice/blocked').set(alice.auth).expect(200);
      expect(res.body.blocked.map((user: { id: number }) => user.id)).to.deep.equal([carol.id, bob.id]);
      expect(res.body.blocked[0]).to.have.all.keys('id', 'login', 'name', 'avatar_url', 'abilities');
      const paged = await api().get('/api/v3/users/alice/blocked?offset=1&limit=1').set(alice.auth).expect(200);
      expect(paged.body.blocked.map((user: { id: number }) => user.id)).to.deep.equal([bob.id]);
      await api().get('/api/v3/users/alice/blocked?limit=151').set(alice.auth).expect(400);
      expect((await api().get('/api/v3/users/alice/blocked').set(bob.auth).expect(403)).body).to.deep.equal({
        error: 'AccessDenied',
      });
      const admin = await makeUser('root', 'admin');
      await api().get('/api/v3/users/alice/blocked').set(admin.auth).expect(403);
      await api().get('/api/v3/users/alice/blocked').expect(401);
      await api().get('/api/v3/users/alice/blocked?limit=abc').expect(401);
      await api().get('/api/v3/users/nobody/blocked').set(alice.auth).expect(404);
    });
  });

  describe('POST /photos', () => {
    const upload = (user: TestUser, file: Buffer, filename = 'photo.png', contentType = 'image/png') =>
      api().post('/api/v3/photos').set(user.auth).attach('file', file, { filename, contentType });

    it('stores an image and serves it back at its URL, with its type, nosniff and a long cache', async () => {
      const res = await upload(alice, PNG).expect(200);
      expect(res.body).to.have.all.keys('image_url');
      const url: string = res.body.image_url;
      expect(url).to.match(new RegExp(`^${PUBLIC_URL}/uploads/photos/[0-9a-f]{2}/[0-9a-f]{64}\\.png$`));
      const served = await api().get(url.slice(PUBLIC_URL.length)).buffer(true).expect(200);
      // Written again (without its metadata): the same picture, not the same bytes.
      const picture = await sharp(served.body as Buffer).metadata();
      expect(picture).to.include({ format: 'png', width: 1, height: 1 });
      expect(served.headers['content-type']).to.equal('image/png');
      expect(served.headers['x-content-type-options']).to.equal('nosniff');
      expect(served.headers['cache-control']).to.match(/max-age=31536000, immutable/);
      expect(served.headers['content-security-policy']).to.equal("default-src 'none'; sandbox");
      const again = await api()
        .get(url.slice(PUBLIC_URL.length))
        .set('If-Modified-Since', served.headers['last-modified']!)
        .expect(304);
      expect(again.text ?? '').to.equal('');
      const gif = await upload(bob, GIF, 'anim.png', 'image/png').expect(200);
      expect(gif.body.image_url).to.match(/\.gif$/);
    });

    it('judges the type by the bytes: a text file named .png, sent as image/png, is refused', async () => {
      const res = await upload(alice, Buffer.from('<svg onload="alert(1)"></svg>'), 'evil.png').expect(400);
      expect(res.body).to.deep.include({ error: 'ParameterInvalid' });
      expect(res.body.message).to.match(/PNG, JPEG, GIF or WebP/);
      await upload(alice, Buffer.from('%PDF-1.7\n'), 'doc.gif', 'image/gif').expect(400);
    });

    it("never lets the client's file name reach the file system", async () => {
      const files = async () =>
        (await readdir(testEnv().config.uploadsDir, { recursive: true })).filter((f) => f.endsWith('.png'));
      const before = await files();
      // A picture of its own (a file is stored once, whoever sends it): one more file.
      const unique = await sharp({
        create: { width: 3, height: 2, channels: 3, background: `#${randomBytes(3).toString('hex')}` },
      })
        .png()
        .toBuffer();
      const res = await upload(alice, unique, '../../../../tmp/escaped.png').expect(200);
      expect(res.body.image_url).to.not.include('escaped').and.not.include('..');
      const stored = await files();
      expect(stored).to.have.length(before.length + 1);
      expect(stored.join(' ')).to.not.include('escaped');
      for (const probe of ['/uploads/../package.json', '/uploads/photos/2026/01/..%2F..%2F..%2Fpackage.json', '/uploads/x.png']) {
        const res = await api().get(probe);
        expect(res.status, probe).to.equal(404);
      }
      expect(path.isAbsolute(testEnv().config.uploadsDir)).to.equal(true);
    });

    it('answers 413 over 5 MiB, 400 without a file, 401 anonymously and 403 for blocked users', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
      const tooBig = await upload(alice, big).expect(413);
      expect(tooBig.body.error).to.equal('PayloadTooLarge');
      const missing = await api().post('/api/v3/photos').set(alice.auth).field('other', 'x').expect(400);
      expect(missing.body).to.deep.include({ error: 'ParameterInvalid' });
      await api().post('/api/v3/photos').set(alice.auth).send({ file: 'not multipart' }).expect(400);
      await api().post('/api/v3/photos').attach('file', PNG, 'a.png').expect(401);
      const blocked = await makeUser('troll', 'blocked');
      const denied = await upload(blocked, PNG).expect(403);
      expect(denied.body.error).to.equal('AccessDenied');
      await upload(alice, PNG).field('extra', 'x').expect(200);
      const twoFiles = await api()
        .post('/api/v3/photos')
        .set(alice.auth)
        .attach('file', PNG, 'a.png')
        .attach('file', PNG, 'b.png');
      expect(twoFiles.status).to.equal(400);
    });
  });

  describe('POST /photos with access_token as a multipart field (contract §6, issue 31)', () => {
    const photos = async () =>
      (await readdir(testEnv().config.uploadsDir, { recursive: true }).catch(() => [] as string[])).filter((f) =>
        f.endsWith('.png'),
      );

    it('takes the token from a field sent before or after the file, and never logs it', async () => {
      const { Writable } = await import('node:stream');
      const { default: pino } = await import('pino');
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const logged = checkedApi(createApp({ ...appDependencies(), logger: pino({ level: 'trace' }, sink) }));
      const before = await logged
        .post('/api/v3/photos')
        .field('access_token', alice.token)
        .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
        .expect(200);
      expect(before.body.image_url).to.match(/\/uploads\/photos\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
      const after = await logged
        .post('/api/v3/photos')
        .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
        .field('access_token', bob.token)
        .expect(200);
      expect(after.body.image_url).to.match(/\.png$/);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines.join('\n')).to.include('request completed');
      expect(lines.join('\n')).to.not.include(alice.token).and.not.include(bob.token);
    });

    it('answers 401 for a wrong token in the field, before or after the file, storing nothing', async () => {
      const stored = await photos();
      for (const order of ['before', 'after']) {
        let request = api().post('/api/v3/photos');
        if (order === 'before') request = request.field('access_token', 'not-a-token');
        request = request.attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
        if (order === 'after') request = request.field('access_token', 'not-a-token');
        const res = await request.expect(401);
        expect(res.body.error, order).to.equal('Unauthorized');
        expect(res.headers['www-authenticate']).to.match(/^Bearer /);
      }
      await api().post('/api/v3/photos').field('access_token', '').attach('file', PNG, 'a.png').expect(401);
      expect(await photos()).to.deep.equal(stored);
    });

    it('lets the Authorization header win over the field, and refuses a blocked user’s token and a read token with 403', async () => {
      await api()
        .post('/api/v3/photos')
        .set('Authorization', 'Bearer wrong')
        .field('access_token', alice.token)
        .attach('file', PNG, 'a.png')
        .expect(401);
      const blocked = await makeUser('troll', 'blocked');
      const denied = await api()
        .post('/api/v3/photos')
        .field('access_token', blocked.token)
        .attach('file', PNG, 'a.png')
        .expect(403);
      expect(denied.body.error).to.equal('AccessDenied');
      // A read token may not write, wherever it is sent (contract §10).
      await testEnv().sql("update oauth_tokens set scope = 'read' where user_id = $1", [alice.id]);
      const reading = await api()
        .post('/api/v3/photos')
        .field('access_token', alice.token)
        .attach('file', PNG, 'a.png')
        .expect(403);
      expect(reading.body.message).to.match(/read scope/);
    });
  });

  describe('HTTP conventions', () => {
    it('answers a known path with a method it does not serve with 405, Allow and the JSON body', async () => {
      const topics = await api().delete('/api/v3/topics').expect(405);
      expect(topics.body).to.deep.equal({ error: 'MethodNotAllowed' });
      expect(topics.headers.allow!.split(', ').sort()).to.deep.equal(['GET', 'HEAD', 'POST']);
      const topic = await api().post('/api/v3/topics/1/ban.json').set(alice.auth);
      expect(topic.status).to.not.equal(405);
      const healthz = await api().post('/healthz').expect(405);
      expect(healthz.headers.allow).to.equal('HEAD, GET');
      const token = await api().get('/oauth/token').expect(405);
      expect(token.body).to.deep.equal({ error: 'MethodNotAllowed' });
      await api().delete('/api/v3/nowhere').expect(404);
    });

    describe('CORS', () => {
      const appWith = (corsOrigins: string[] | '*' | undefined) => checkedApi(createApp({ ...appDependencies(), corsOrigins }));

      it('answers a preflight from an allowed origin, with Authorization allowed', async () => {
        const app = appWith(['https://app.example', 'http://localhost:8100']);
        const res = await app
          .options('/api/v3/topics')
          .set('Origin', 'http://localhost:8100')
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'authorization,content-type')
          .expect(204);
        expect(res.headers['access-control-allow-origin']).to.equal('http://localhost:8100');
        expect(res.headers['access-control-allow-headers']!.toLowerCase()).to.include('authorization');
        expect(res.headers['access-control-allow-methods']).to.include('POST');
        const get = await app.get('/api/v3/topics').set('Origin', 'https://app.example').expect(200);
        expect(get.headers['access-control-allow-origin']).to.equal('https://app.example');
        expect(get.headers['access-control-expose-headers']).to.include('X-Request-Id');
        const error = await app.get('/api/v3/hello').set('Origin', 'https://app.example').expect(401);
        expect(error.headers['access-control-allow-origin'], 'errors carry it too').to.equal('https://app.example');
      });

      it('says nothing to other origins, nor to anyone when CORS_ORIGINS is unset; * allows all', async () => {
        const listed = await appWith(['https://app.example']).get('/api/v3/topics').set('Origin', 'https://evil.example');
        expect(listed.headers).to.not.have.property('access-control-allow-origin');
        const unset = await appWith(undefined).get('/api/v3/topics').set('Origin', 'https://app.example');
        expect(unset.headers).to.not.have.property('access-control-allow-origin');
        const any = await appWith('*').get('/api/v3/topics').set('Origin', 'https://anywhere.example');
        expect(any.headers['access-control-allow-origin']).to.equal('*');
      });
    });

    it('compresses responses over 1 KiB for clients that accept gzip or br, and leaves small ones alone', async () => {
      for (let i = 0; i < 30; i++) await makeTopic(alice, general, `topic number ${i} with a title long enough`);
      for (const encoding of ['gzip', 'br']) {
        const res = await api().get('/api/v3/topics?limit=30').set('Accept-Encoding', encoding).expect(200);
        expect(res.headers['content-encoding'], encoding).to.equal(encoding);
        expect(res.body.topics).to.have.length(30);
      }
      const plain = await api().get('/api/v3/topics?limit=30').set('Accept-Encoding', 'identity').expect(200);
      expect(plain.headers).to.not.have.property('content-encoding');
      const small = await api().get('/healthz').set('Accept-Encoding', 'gzip').expect(200);
      expect(small.headers).to.not.have.property('content-encoding');
    });
  });
});
