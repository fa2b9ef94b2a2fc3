import { expect } from 'chai';
import { api, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('GET /api/v3/topics', () => {
  let alice: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    general = await makeNode('General');
  });

  it('answers a wrapped list of topic list items with exactly the contract keys', async () => {
    await makeTopic(alice, general, 'Hello', 'here we go');
    const res = await api().get('/api/v3/topics').expect(200).expect('Content-Type', 'application/json; charset=utf-8');
    expect(res.body.topics).to.have.length(1);
    const topic = res.body.topics[0];
    expect(topic).to.have.all.keys(
      'id',
      'title',
      'created_at',
      'updated_at',
      'replied_at',
      'replies_count',
      'node_id',
      'node_name',
      'last_reply_user_id',
      'last_reply_user_login',
      'grade',
      'excellent',
      'likes_count',
      'hits',
      'lock_node',
      'suggested_at',
      'closed_at',
      'deleted',
      'user',
      'abilities',
    );
    expect(topic).to.include({
      title: 'Hello',
      node_id: general,
      node_name: 'General',
      replied_at: null,
      replies_count: 0,
      last_reply_user_id: null,
      last_reply_user_login: null,
      grade: 'normal',
      excellent: 0,
      likes_count: 0,
      hits: 0,
      lock_node: false,
      suggested_at: null,
      closed_at: null,
      deleted: false,
    });
    expect(topic.created_at).to.match(ISO_MS);
    expect(topic.user).to.deep.equal({
      id: alice.id,
      login: 'alice',
      name: null,
      avatar_url: `${PUBLIC_URL}/avatars/alice.svg`,
      abilities: { update: false, destroy: false },
    });
    expect(topic.abilities).to.deep.equal({
      update: false,
      destroy: false,
      ban: false,
      normal: false,
      excellent: false,
      unexcellent: false,
      close: false,
      open: false,
    });
  });

  it("shows the caller's own abilities when authenticated", async () => {
    await makeTopic(alice, general);
    const res = await api().get('/api/v3/topics').set(alice.auth).expect(200);
    expect(res.body.topics[0].abilities).to.include({ update: true, destroy: true, ban: false, close: true });
  });

  it('answers with the .json suffix too', async () => {
    await makeTopic(alice, general);
    const res = await api().get('/api/v3/topics.json').expect(200);
    expect(res.body.topics).to.have.length(1);
  });

  it('lower-cases type and treats an unknown type as last_actived', async () => {
    const first = await makeTopic(alice, general, 'first');
    const second = await makeTopic(alice, general, 'second');
    await testEnv().sql("update topics set last_active_at = now() + interval '1 minute' where id = $1", [first]);
    const recent = await api().get('/api/v3/topics?type=RECENT').expect(200);
    expect(recent.body.topics.map((t: { id: number }) => t.id)).to.deep.equal([second, first]);
    const unknown = await api().get('/api/v3/topics?type=whatever').expect(200);
    expect(unknown.body.topics.map((t: { id: number }) => t.id)).to.deep.equal([first, second]);
  });

  it('filters by node_id, treats a blank node_id as absent, and answers 404 for an unknown node', async () => {
    const ruby = await makeNode('Ruby');
    const inRuby = await makeTopic(alice, ruby);
    await makeTopic(alice, general);
    const res = await api().get(`/api/v3/topics?node_id=${ruby}`).expect(200);
    expect(res.body.topics.map((t: { id: number }) => t.id)).to.deep.equal([inRuby]);
    expect((await api().get('/api/v3/topics?node_id=').expect(200)).body.topics).to.have.length(2);
    expect((await api().get('/api/v3/topics?node_id=9999').expect(404)).body).to.deep.equal({ error: 'ResourceNotFound' });
  });

  it('applies limit (default 20) and offset', async () => {
    for (let i = 0; i < 22; i++) await makeTopic(alice, general, `t${i}`);
    expect((await api().get('/api/v3/topics').expect(200)).body.topics).to.have.length(20);
    expect((await api().get('/api/v3/topics?offset=20').expect(200)).body.topics).to.have.length(2);
    expect((await api().get('/api/v3/topics?limit=150').expect(200)).body.topics).to.have.length(22);
  });

  for (const [query, parameter] of [
    ['limit=0', 'limit'],
    ['limit=151', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['node_id=abc', 'node_id'],
  ] as const) {
    it(`answers 400 ParameterInvalid naming ${parameter} for ${query}`, async () => {
      const res = await api().get(`/api/v3/topics?${query}`).expect(400);
      expect(res.body.error).to.equal('ParameterInvalid');
      expect(res.body.message).to.include(parameter);
    });
  }

  it('treats an invalid token, or the literal "Bearer null", as anonymous', async () => {
    const secret = await makeNode('Secret', { hidden: true });
    await makeTopic(alice, secret);
    for (const header of ['Bearer null', 'Bearer nope', 'Basic Zm9vOmJhcg==']) {
      const res = await api().get('/api/v3/topics').set('Authorization', header).expect(200);
      expect(res.body.topics).to.have.length(0);
    }
    expect((await api().get('/api/v3/topics').set(alice.auth).expect(200)).body.topics).to.have.length(1);
  });
});

describe('GET /api/v3/topics/:id', () => {
  let alice: TestUser;
  let id: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    id = await makeTopic(alice, await makeNode('General'), 'Hello', 'here we go');
  });

  it('answers the topic detail with body, body_html and meta, counting the hit', async () => {
    const res = await api().get(`/api/v3/topics/${id}`).expect(200);
    expect(res.body.topic).to.include({ id, title: 'Hello', body: 'here we go', body_html: '<p>here we go</p>', hits: 1 });
    expect(res.body.meta).to.deep.equal({ followed: false, liked: false, favorited: false });
    const again = await api().get(`/api/v3/topics/${id}.json`).expect(200);
    expect(again.body.topic.hits).to.equal(2);
  });

  it("reflects the caller's follow and favorite in meta", async () => {
    await api().post(`/api/v3/topics/${id}/follow`).set(alice.auth).expect(200, { ok: 1 });
    await api().post(`/api/v3/topics/${id}/favorite`).set(alice.auth).expect(200, { ok: 1 });
    const res = await api().get(`/api/v3/topics/${id}`).set(alice.auth).expect(200);
    expect(res.body.meta).to.deep.equal({ followed: true, liked: false, favorited: true });
    await api().post(`/api/v3/topics/${id}/unfollow`).set(alice.auth).expect(200, { ok: 1 });
    await api().post(`/api/v3/topics/${id}/unfavorite`).set(alice.auth).expect(200, { ok: 1 });
    const after = await api().get(`/api/v3/topics/${id}`).set(alice.auth).expect(200);
    expect(after.body.meta).to.deep.equal({ followed: false, liked: false, favorited: false });
  });

  it("marks the viewer's unread notifications about the topic as read, and nobody else's", async () => {
    const bob = await makeUser('bob');
    const env = testEnv();
    await env.sql("insert into notifications (user_id, type, topic_id) values ($1, 'TopicReply', $2), ($3, 'TopicReply', $4)", [
      alice.id,
      id,
      bob.id,
      id,
    ]);
    await api().get(`/api/v3/topics/${id}`).set(alice.auth).expect(200);
    const rows = await env.sql<{ user_id: number; read: boolean }>(
      'select user_id, read_at is not null as read from notifications order by user_id',
    );
    expect(rows).to.deep.equal([
      { user_id: alice.id, read: true },
      { user_id: bob.id, read: false },
    ]);
  });

  it('answers 404 for an unknown, malformed, out-of-range or deleted topic', async () => {
    for (const path of ['999', 'abc', '99999999999', '-1', '1e3']) {
      expect((await api().get(`/api/v3/topics/${path}`).expect(404)).body).to.deep.equal({ error: 'ResourceNotFound' });
    }
    await testEnv().sql('update topics set deleted_at = now() where id = $1', [id]);
    await api().get(`/api/v3/topics/${id}`).expect(404, { error: 'ResourceNotFound' });
  });
});

describe('GET /api/v3/nodes', () => {
  it('lists nodes by sort descending, NoPoint included, with the contract keys', async () => {
    const low = await makeNode('Low', { sort: 1 });
    const high = await makeNode('High', { sort: 9 });
    const res = await api().get('/api/v3/nodes').expect(200);
    const ids = res.body.nodes.map((n: { id: number }) => n.id);
    expect(ids.slice(0, 2)).to.deep.equal([high, low]);
    expect(res.body.nodes.map((n: { name: string }) => n.name)).to.include('NoPoint');
    expect(res.body.nodes[0]).to.have.all.keys(
      'id',
      'name',
      'summary',
      'sort',
      'topics_count',
      'updated_at',
      'section_id',
      'section_name',
    );
  });

  it('shows one node, or 404', async () => {
    const id = await makeNode('Ruby');
    const res = await api().get(`/api/v3/nodes/${id}.json`).expect(200);
    expect(res.body.node).to.include({ id, name: 'Ruby', topics_count: 0 });
    await api().get('/api/v3/nodes/9999').expect(404, { error: 'ResourceNotFound' });
  });
});

describe('GET /api/v3/hello and /api/v3/users/me', () => {
  it('answer the caller as a UserDetail, own email included', async () => {
    const alice = await makeUser('alice');
    for (const path of ['/api/v3/hello', '/api/v3/users/me', '/api/v3/users/me.json']) {
      const res = await api().get(path).set(alice.auth).expect(200);
      expect(res.body.user).to.include({
        id: alice.id,
        login: 'alice',
        email: 'alice@example.com',
        level: 'member',
        level_name: 'Member',
        topics_count: 0,
        bio: null,
      });
    }
  });

  it('accept the token as the access_token parameter, the header winning over it', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    await api().get(`/api/v3/hello?access_token=${alice.token}`).expect(200);
    const res = await api().get(`/api/v3/hello?access_token=${alice.token}`).set(bob.auth).expect(200);
    expect(res.body.user.login).to.equal('bob');
    await api().get('/api/v3/hello').set('authorization', `bearer ${alice.token}`).expect(200);
  });

  it('answer 401 with WWW-Authenticate without a valid token', async () => {
    for (const auth of [undefined, 'Bearer null', 'Bearer expired-or-unknown']) {
      const req = api().get('/api/v3/hello');
      if (auth) req.set('Authorization', auth);
      const res = await req.expect(401);
      expect(res.body.error).to.equal('Unauthorized');
      expect(res.headers['www-authenticate']).to.equal('Bearer realm="forum", error="invalid_token"');
    }
  });
});

describe('health', () => {
  it('GET /healthz and /readyz answer ok while the database answers', async () => {
    await api().get('/healthz').expect(200, { status: 'ok' });
    await api().get('/readyz').expect(200);
  });

  it('serves the letter avatars that avatar_url points at', async () => {
    const res = await api()
      .get('/avatars/alice.svg')
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => done(null, text));
      })
      .expect(200)
      .expect('Content-Type', /image\/svg\+xml/);
    expect(res.body).to.include('>A</text>');
  });
});
