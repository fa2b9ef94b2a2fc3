import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

describe('error contract', () => {
  it('answers an unknown route with 404 ResourceNotFound', async () => {
    await api().get('/api/v3/nothing-here').expect(404, { error: 'ResourceNotFound' });
    await api().get('/api/v3/nowhere/at/all').expect(404, { error: 'ResourceNotFound' });
    // Outside the API, a path no route knows is the forum's not-found page (test/web/not-found.test.ts).
    // One segment is a member's page (contract §21a): a login nobody has is the pages' own 404.
    await api()
      .get('/nowhere')
      .expect(404)
      .expect('Content-Type', /text\/html/);
  });

  it('answers a JSON body that does not parse with 400 ParameterInvalid', async () => {
    const alice = await makeUser('alice');
    const res = await api()
      .post('/api/v3/topics')
      .set(alice.auth)
      .set('Content-Type', 'application/json')
      .send('{"title": ')
      .expect(400);
    expect(res.body.error).to.equal('ParameterInvalid');
    expect(res.body.message).to.be.a('string');
  });

  it('answers a JSON body that is not an object with 400 ParameterInvalid', async () => {
    const alice = await makeUser('alice');
    const res = await api()
      .post('/api/v3/topics')
      .set(alice.auth)
      .set('Content-Type', 'application/json')
      .send('[1, 2]')
      .expect(400);
    expect(res.body.error).to.equal('ParameterInvalid');
  });

  it('refuses a body over 1 MiB with 413, JSON or form', async () => {
    const alice = await makeUser('alice');
    const big = 'x'.repeat(1024 * 1024 + 10);
    const json = await api().post('/api/v3/topics').set(alice.auth).send({ title: 't', body: big, node_id: 1 }).expect(413);
    expect(json.body.error).to.equal('PayloadTooLarge');
    await api().post('/api/v3/topics').set(alice.auth).type('form').send(`body=${big}`).expect(413);
  });

  it('never shows a stack trace', async () => {
    const res = await api().post('/api/v3/topics').set('Content-Type', 'application/json').send('{').expect(400);
    expect(JSON.stringify(res.body)).to.not.match(/at .*\.js/);
  });
});

/** Values a hostile or broken client might send in any parameter. */
const HOSTILE: unknown[] = [
  "1' OR '1'='1",
  '1; drop table topics; --',
  "'; select pg_sleep(5); --",
  '99999999999999999999999',
  '-99999999999',
  '1e308',
  'NaN',
  'Infinity',
  '0x10',
  '',
  ' ',
  '\u0000',
  '💥🔥 ünïcødé ‮rtl',
  '<script>alert(1)</script>',
  '%00%ff',
  ['1', '2'],
  { $gt: '' },
  { nested: { deep: [1, 2, 3] } },
  null,
  true,
  1.5,
  -1,
  0,
  9007199254740993,
  'x'.repeat(10_000),
];

describe('hostile values at every topic parameter', () => {
  let alice: TestUser;
  let admin: TestUser;
  let topicId: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    admin = await makeUser('root', 'admin');
    const node = await makeNode('General');
    topicId = await makeTopic(alice, node);
  });

  function expectNo500(status: number, what: string) {
    expect(status, what).to.be.below(500);
  }

  it('GET /topics: type, node_id, offset, limit', async () => {
    for (const param of ['type', 'node_id', 'offset', 'limit']) {
      for (const value of HOSTILE) {
        const res = await api()
          .get('/api/v3/topics')
          .set(alice.auth)
          .query({ [param]: value as string });
        expectNo500(res.status, `${param}=${JSON.stringify(value)}`);
        if (res.status >= 400) expect(res.body.error).to.be.a('string');
      }
    }
  });

  it('GET, POST and DELETE on /topics/:id with hostile ids', async () => {
    for (const value of HOSTILE.filter((v): v is string => typeof v === 'string' && v.length < 100)) {
      const path = `/api/v3/topics/${encodeURIComponent(value)}`;
      expectNo500((await api().get(path)).status, `GET ${path}`);
      expectNo500((await api().post(path).set(alice.auth).send({ title: 't', body: 'b', node_id: 1 })).status, `POST ${path}`);
      expectNo500((await api().delete(path).set(admin.auth)).status, `DELETE ${path}`);
      expectNo500((await api().post(`${path}/follow`).set(alice.auth)).status, `follow ${path}`);
    }
  });

  it('POST /topics and POST /topics/:id: title, body, node_id (JSON and form)', async () => {
    const valid = { title: 'Title', body: 'Body', node_id: 1 };
    for (const param of ['title', 'body', 'node_id']) {
      for (const value of HOSTILE) {
        const fields = { ...valid, [param]: value };
        const created = await api().post('/api/v3/topics').set(alice.auth).send(fields);
        expectNo500(created.status, `create ${param}=${JSON.stringify(value)}`);
        const updated = await api().post(`/api/v3/topics/${topicId}`).set(admin.auth).send(fields);
        expectNo500(updated.status, `update ${param}=${JSON.stringify(value)}`);
        if (typeof value === 'string') {
          const form = await api()
            .post('/api/v3/topics')
            .set(alice.auth)
            .type('form')
            .send({ ...valid, [param]: value });
          expectNo500(form.status, `form ${param}=${JSON.stringify(value)}`);
        }
      }
    }
  });

  it('POST /topics/:id/action: type', async () => {
    for (const value of HOSTILE) {
      const res = await api().post(`/api/v3/topics/${topicId}/action`).set(admin.auth).send({ type: value });
      expectNo500(res.status, `type=${JSON.stringify(value)}`);
    }
  });

  it('access_token and Authorization', async () => {
    for (const value of HOSTILE.filter((v): v is string => typeof v === 'string' && !v.includes('\u0000'))) {
      expectNo500((await api().get('/api/v3/topics').query({ access_token: value })).status, `access_token=${value}`);
      const header = `Bearer ${value}`.replace(/[^\x20-\x7e]/g, '?');
      expectNo500((await api().get('/api/v3/topics').set('Authorization', header)).status, `Authorization: ${header}`);
    }
  });
});

describe('hostile values at every reply and like parameter', () => {
  let alice: TestUser;
  let topicId: number;
  let replyId: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    topicId = await makeTopic(alice, await makeNode('General'));
    replyId = await makeReply(alice, topicId);
  });

  it('GET /topics/:id/replies: offset, limit and the path id', async () => {
    for (const param of ['offset', 'limit']) {
      for (const value of HOSTILE) {
        const res = await api()
          .get(`/api/v3/topics/${topicId}/replies`)
          .set(alice.auth)
          .query({ [param]: value as string });
        expect(res.status, `${param}=${JSON.stringify(value)}`).to.be.below(500);
      }
    }
    for (const value of HOSTILE.filter((v): v is string => typeof v === 'string' && v.length < 100)) {
      const res = await api().get(`/api/v3/topics/${encodeURIComponent(value)}/replies`);
      expect(res.status, value).to.be.below(500);
    }
  });

  it('POST /topics/:id/replies and POST /replies/:id: body; GET, POST, DELETE /replies/:id with hostile ids', async () => {
    for (const value of HOSTILE) {
      const created = await api().post(`/api/v3/topics/${topicId}/replies`).set(alice.auth).send({ body: value });
      expect(created.status, `create body=${JSON.stringify(value)}`).to.be.below(500);
      const updated = await api().post(`/api/v3/replies/${replyId}`).set(alice.auth).send({ body: value });
      expect(updated.status, `update body=${JSON.stringify(value)}`).to.be.below(500);
    }
    for (const value of HOSTILE.filter((v): v is string => typeof v === 'string' && v.length < 100)) {
      const path = `/api/v3/replies/${encodeURIComponent(value)}`;
      expect((await api().get(path)).status, path).to.be.below(500);
      expect((await api().post(path).set(alice.auth).send({ body: 'x' })).status, path).to.be.below(500);
      expect((await api().delete(path).set(alice.auth)).status, path).to.be.below(500);
    }
  });

  it('POST and DELETE /likes: obj_type and obj_id', async () => {
    const bob = await makeUser('bob');
    for (const value of HOSTILE) {
      for (const body of [
        { obj_type: value, obj_id: topicId },
        { obj_type: 'reply', obj_id: value },
      ]) {
        expect((await api().post('/api/v3/likes').set(bob.auth).send(body)).status, JSON.stringify(body)).to.be.below(500);
        expect((await api().delete('/api/v3/likes').set(bob.auth).send(body)).status, JSON.stringify(body)).to.be.below(500);
      }
    }
  });
});

describe('XSS in topic bodies', () => {
  const ATTACKS = [
    '<script>alert(1)</script>',
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '<img src=x onerror=alert(1)>',
    '![x](javascript:alert(1))',
    '<a href="javascript:alert(1)">x</a>',
    '<svg onload=alert(1)>',
    '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '<iframe src="https://evil.example"></iframe>',
    '`<script>` in code is fine',
  ];

  it('never lets <script>, javascript: links or event attributes reach body_html', async () => {
    const alice = await makeUser('alice');
    const node = await makeNode('General');
    for (const body of ATTACKS) {
      const res = await api().post('/api/v3/topics').set(alice.auth).send({ title: 'x', body, node_id: node }).expect(200);
      const html: string = res.body.topic.body_html;
      expect(res.body.topic.body, 'the Markdown is kept as submitted').to.equal(body);
      expect(html, body).to.not.match(/<script/i);
      expect(html, body).to.not.match(/<(iframe|svg|img)[^>]*\son\w+=/i);
      expect(html, body).to.not.match(/<[a-z][^>]*\son\w+\s*=/i);
      expect(html, body).to.not.match(/<[a-z][^>]*\s(href|src)\s*=\s*"?\s*(javascript|data):/i);
      expect(html, body).to.not.match(/<iframe/i);
    }
  });

  it('renders plain Markdown as expected', async () => {
    const alice = await makeUser('alice');
    const node = await makeNode('General');
    const res = await api()
      .post('/api/v3/topics')
      .set(alice.auth)
      .send({ title: 'x', body: 'here we go', node_id: node })
      .expect(200);
    expect(res.body.topic.body_html).to.equal('<p>here we go</p>');
    const link = await api()
      .post('/api/v3/topics')
      .set(alice.auth)
      .send({ title: 'x', body: '[site](https://example.com) **bold**', node_id: node })
      .expect(200);
    expect(link.body.topic.body_html).to.equal(
      '<p><a href="https://example.com" rel="nofollow noopener">site</a> <strong>bold</strong></p>',
    );
  });
});

describe('transactions', () => {
  it('a failed create leaves no topic and no counter change', async () => {
    const alice = await makeUser('alice');
    await api().post('/api/v3/topics').set(alice.auth).send({ title: 't', body: 'b', node_id: 424242 }).expect(404); // an unknown node (contract §6)
    const [row] = await testEnv().sql<{ topics: number; counted: number }>(
      "select (select count(*)::int from topics) as topics, (select topics_count from users where login = 'alice') as counted",
    );
    expect(row).to.deep.equal({ topics: 0, counted: 0 });
  });
});
