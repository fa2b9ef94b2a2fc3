import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';
import { ConflictRetries } from '../../src/adapters/persistence/database/unit-of-work.js';

describe('notifications over HTTP', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let admin: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    carol = await makeUser('carol');
    admin = await makeUser('root', 'admin');
    general = await makeNode('General');
  });

  const notificationsOf = async (user: TestUser, query = '') =>
    (await api().get(`/api/v3/notifications${query}`).set(user.auth).expect(200)).body.notifications;
  const unread = async (user: TestUser) =>
    (await api().get('/api/v3/notifications/unread_count').set(user.auth).expect(200)).body.count;

  it('the story: bob replies to alice mentioning carol; alice views the topic and her unread count drops to 0', async () => {
    const topicId = await makeTopic(alice, general, 'Alice asks');
    await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body: 'Good question, @carol knows' }).expect(200);

    const aliceNotes = await notificationsOf(alice);
    expect(aliceNotes).to.have.length(1);
    expect(aliceNotes[0]).to.include({ type: 'TopicReply', read: false });
    expect(aliceNotes[0].actor).to.deep.equal({
      id: bob.id,
      login: 'bob',
      name: null,
      avatar_url: `${PUBLIC_URL}/avatars/bob.svg`,
      abilities: { update: false, destroy: false },
    });
    expect(aliceNotes[0].topic).to.include({ id: topicId, title: 'Alice asks' });
    expect(aliceNotes[0].reply).to.include({ body: 'Good question, @carol knows', topic_id: topicId });
    expect(await unread(alice)).to.equal(1);

    const carolNotes = await notificationsOf(carol);
    expect(carolNotes).to.have.length(1);
    expect(carolNotes[0]).to.include({ type: 'Mention', mention_type: 'Reply', read: false });
    expect(carolNotes[0].mention).to.include({ body: 'Good question, @carol knows' });
    // Clients open a notification through topic.id: a mention in a reply carries the reply's topic.
    expect(carolNotes[0].topic).to.include({ id: topicId, title: 'Alice asks' });
    expect(carolNotes[0]).to.not.have.any.keys('reply');

    expect(await notificationsOf(bob)).to.deep.equal([]);

    await api().get(`/api/v3/topics/${topicId}`).set(alice.auth).expect(200);
    expect(await unread(alice)).to.equal(0);
    expect(await unread(carol)).to.equal(1);
  });

  it('has exactly the contract keys for each type', async () => {
    const topicId = await makeTopic(alice, general);
    await api().post(`/api/v3/users/alice/follow`).set(bob.auth).expect(200); // Follow for alice
    await makeTopic(alice, general, 'second'); // Topic for bob (follows alice)
    await makeReply(bob, topicId, 'hello'); // TopicReply for alice
    await api().post(`/api/v3/topics/${topicId}/ban`).set(admin.auth).expect(200); // NodeChanged for alice

    const byType = Object.fromEntries((await notificationsOf(alice)).map((n: { type: string }) => [n.type, n]));
    const common = ['id', 'type', 'read', 'created_at', 'updated_at', 'actor'];
    expect(byType.Follow).to.have.all.keys(...common);
    expect(byType.TopicReply).to.have.all.keys(...common, 'reply', 'topic');
    expect(byType.NodeChanged).to.have.all.keys(...common, 'topic', 'node');
    expect(byType.NodeChanged.node.name).to.equal('NoPoint');
    const [topicNote] = await notificationsOf(bob);
    expect(topicNote).to.have.all.keys(...common, 'topic');
    expect(topicNote.topic.title).to.equal('second');
  });

  it('lists id descending with offset and limit 1..150', async () => {
    const topicId = await makeTopic(alice, general);
    for (let i = 0; i < 3; i++) await makeReply(bob, topicId);
    const all = await notificationsOf(alice);
    const ids = all.map((n: { id: number }) => n.id);
    expect(ids).to.deep.equal([...ids].sort((a: number, b: number) => b - a));
    expect((await notificationsOf(alice, '?offset=1&limit=1')).map((n: { id: number }) => n.id)).to.deep.equal([ids[1]]);
    for (const query of ['limit=0', 'limit=151', 'limit=abc', 'offset=-1']) {
      const res = await api().get(`/api/v3/notifications?${query}`).set(alice.auth).expect(400);
      expect(res.body.error).to.equal('ParameterInvalid');
    }
  });

  it('answers 401 without a token on every notification endpoint', async () => {
    await api().get('/api/v3/notifications').expect(401);
    await api().get('/api/v3/notifications?limit=abc').expect(401);
    await api().get('/api/v3/notifications/unread_count').expect(401);
    await api()
      .post('/api/v3/notifications/read')
      .send({ ids: [1] })
      .expect(401);
    await api().delete('/api/v3/notifications/1').expect(401);
    await api().delete('/api/v3/notifications/all').expect(401);
  });

  describe('POST /notifications/read', () => {
    let ids: number[];
    beforeEach(async () => {
      const topicId = await makeTopic(alice, general);
      await makeReply(bob, topicId);
      await makeReply(carol, topicId);
      ids = (await notificationsOf(alice)).map((n: { id: number }) => n.id);
    });

    it("marks the listed notifications of the caller read, ignoring other users' ids", async () => {
      const bobTopic = await makeTopic(bob, general);
      await makeReply(carol, bobTopic);
      const bobsId = (await notificationsOf(bob))[0].id;
      await api()
        .post('/api/v3/notifications/read')
        .set(alice.auth)
        .send({ ids: [ids[0], bobsId, 999999] })
        .expect(200, { ok: 1 });
      expect(await unread(alice)).to.equal(1);
      expect(await unread(bob)).to.equal(1);
    });

    it('accepts ids[]=… and repeated ids=… form keys', async () => {
      await api()
        .post('/api/v3/notifications/read')
        .set(alice.auth)
        .type('form')
        .send(`ids[]=${ids[0]}&ids[]=${ids[1]}`)
        .expect(200);
      expect(await unread(alice)).to.equal(0);
      await testEnv().sql('update notifications set read_at = null');
      await api().post(`/api/v3/notifications/read?ids=${ids[0]}&ids=${ids[1]}`).set(alice.auth).expect(200);
      expect(await unread(alice)).to.equal(0);
    });

    it('does nothing for an empty array', async () => {
      await api().post('/api/v3/notifications/read').set(alice.auth).send({ ids: [] }).expect(200, { ok: 1 });
      expect(await unread(alice)).to.equal(2);
    });

    it('answers 400 ParameterInvalid without ids, or when ids is not an array of ids', async () => {
      for (const body of [{}, { ids: 'all' }, { ids: 5 }, { ids: ['x'] }, { ids: [{}] }]) {
        const res = await api().post('/api/v3/notifications/read').set(alice.auth).send(body).expect(400);
        expect(res.body.error, JSON.stringify(body)).to.equal('ParameterInvalid');
      }
      expect(await unread(alice)).to.equal(2);
    });
  });

  describe('DELETE /notifications/:id and /all', () => {
    it("deletes one of the caller's, and answers 404 for another user's", async () => {
      const topicId = await makeTopic(alice, general);
      await makeReply(bob, topicId);
      const bobTopic = await makeTopic(bob, general);
      await makeReply(alice, bobTopic);
      const [mine] = await notificationsOf(alice);
      const [bobs] = await notificationsOf(bob);
      await api().delete(`/api/v3/notifications/${bobs.id}`).set(alice.auth).expect(404, { error: 'ResourceNotFound' });
      await api().delete(`/api/v3/notifications/${mine.id}`).set(alice.auth).expect(200, { ok: 1 });
      expect(await notificationsOf(alice)).to.deep.equal([]);
      expect(await notificationsOf(bob)).to.have.length(1);
      await api().delete(`/api/v3/notifications/${mine.id}`).set(alice.auth).expect(404);
      await api().delete('/api/v3/notifications/abc').set(alice.auth).expect(404);
    });

    it("deletes all of the caller's and nobody else's", async () => {
      const topicId = await makeTopic(alice, general);
      await makeReply(bob, topicId);
      await makeReply(carol, topicId);
      const bobTopic = await makeTopic(bob, general);
      await makeReply(alice, bobTopic);
      await api().delete('/api/v3/notifications/all').set(alice.auth).expect(200, { ok: 1 });
      expect(await notificationsOf(alice)).to.deep.equal([]);
      expect(await notificationsOf(bob)).to.have.length(1);
    });
  });

  describe('generation', () => {
    it('notifies followers of the topic, and a user following the author of a new topic', async () => {
      const topicId = await makeTopic(alice, general);
      await api().post(`/api/v3/topics/${topicId}/follow`).set(carol.auth).expect(200);
      await makeReply(bob, topicId);
      expect((await notificationsOf(carol)).map((n: { type: string }) => n.type)).to.deep.equal(['TopicReply']);
    });

    it('notifies at most 5 mentioned users per body, and mentions in a topic body', async () => {
      const others = await Promise.all(['m1', 'm2', 'm3', 'm4', 'm5', 'm6'].map((login) => makeUser(login)));
      await makeTopic(alice, general, 'hey', '@m1 @m2 @M3 @m4 @m5 @m6 @nobody @alice');
      const counts = await Promise.all(others.map(async (user) => (await notificationsOf(user)).length));
      expect(counts).to.deep.equal([1, 1, 1, 1, 1, 0]);
      const [note] = await notificationsOf(others[0]!);
      expect(note).to.include({ type: 'Mention', mention_type: 'Topic' });
      expect(note.mention.title).to.equal('hey');
      expect(note.topic).to.deep.equal(note.mention);
      expect(await notificationsOf(alice)).to.deep.equal([]);
    });

    it('finds mentions in raw HTML a client posts (issue 31): a Mention, not a TopicReply, and a linked name', async () => {
      const topicId = await makeTopic(alice, general);
      await api().post(`/api/v3/topics/${topicId}/follow`).set(carol.auth).expect(200);
      const { body } = await api()
        .post(`/api/v3/topics/${topicId}/replies`)
        .set(bob.auth)
        .send({ body: '<p>hi @carol</p>' })
        .expect(200);
      expect(body.reply.body_html).to.equal('<p>hi <a href="/carol" class="user-mention" rel="nofollow noopener">@carol</a></p>');
      const notes = await notificationsOf(carol);
      expect(notes.map((n: { type: string }) => n.type)).to.deep.equal(['Mention']);
      expect(notes[0]).to.include({ mention_type: 'Reply' });
      expect(notes[0].mention.id).to.equal(body.reply.id);
      expect(notes[0].topic.id).to.equal(topicId);
      expect((await notificationsOf(alice)).map((n: { type: string }) => n.type)).to.deep.equal(['TopicReply']);
    });

    it('finds no mention in raw code or link elements (issue 31): a follower gets a TopicReply, the name stays text', async () => {
      const topicId = await makeTopic(alice, general);
      await api().post(`/api/v3/topics/${topicId}/follow`).set(carol.auth).expect(200);
      for (const text of ['<code>@carol</code>', '<a href="x">@carol</a>']) {
        const { body } = await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body: text }).expect(200);
        expect(body.reply.body_html, text).to.not.include('user-mention');
      }
      expect((await notificationsOf(carol)).map((n: { type: string }) => n.type)).to.deep.equal(['TopicReply', 'TopicReply']);
    });

    it('still finds Markdown mentions, and raw HTML ones in a topic body (issue 31)', async () => {
      const topicId = await makeTopic(alice, general);
      await api().post(`/api/v3/topics/${topicId}/follow`).set(carol.auth).expect(200);
      await makeReply(bob, topicId, 'thanks **@carol**');
      const notes = await notificationsOf(carol);
      expect(notes.map((n: { type: string }) => n.type)).to.deep.equal(['Mention']);
      const { body } = await api()
        .post('/api/v3/topics')
        .set(alice.auth)
        .send({ title: 'html', body: '<div>ask <b>@bob</b></div>', node_id: general })
        .expect(200);
      expect(body.topic.body_html).to.include('<a href="/bob" class="user-mention" rel="nofollow noopener">@bob</a>');
      const [note] = await notificationsOf(bob);
      expect(note).to.include({ type: 'Mention', mention_type: 'Topic' });
      expect(note.topic.id).to.equal(body.topic.id);
    });

    it('sends nothing from a user the recipient blocked', async () => {
      await api().post('/api/v3/users/bob/block').set(alice.auth).expect(200, { ok: 1 });
      const topicId = await makeTopic(alice, general);
      await makeReply(bob, topicId, 'hi @alice');
      expect(await notificationsOf(alice)).to.deep.equal([]);
    });

    it('takes the notifications of a deleted reply and of a deleted topic away', async () => {
      const topicId = await makeTopic(alice, general);
      const replyId = await makeReply(bob, topicId, 'ping @carol');
      await api().delete(`/api/v3/replies/${replyId}`).set(bob.auth).expect(200);
      expect(await notificationsOf(alice)).to.deep.equal([]);
      expect(await notificationsOf(carol)).to.deep.equal([]);
      await makeReply(bob, topicId);
      await api().delete(`/api/v3/topics/${topicId}`).set(admin.auth).expect(200);
      expect(await notificationsOf(alice)).to.deep.equal([]);
    });
  });

  /**
   * The unread count is a stored count that triggers on `notifications` keep (issue 18): it must follow every
   * statement that writes, reads or deletes a notification, whoever runs it.
   */
  describe('stored unread counts', () => {
    /** Every user's stored count against a count of the rows (users without a row count 0). */
    async function expectExact(): Promise<void> {
      const wrong = await testEnv().sql(
        `select u.login, coalesce(c.count, 0) as stored,
                (select count(*)::int from notifications n where n.user_id = u.id and n.read_at is null) as actual
         from users u left join notification_unread_counts c on c.user_id = u.id
         where coalesce(c.count, 0) <> (select count(*)::int from notifications n where n.user_id = u.id and n.read_at is null)`,
      );
      expect(wrong).to.deep.equal([]);
    }

    it('follows new notifications, reads, deletes and cascades', async () => {
      const topicId = await makeTopic(alice, general, 'Alice asks');
      await api().post(`/api/v3/topics/${topicId}/follow`).set(carol.auth).expect(200);
      await makeReply(bob, topicId, 'Hello @carol and @alice'); // alice: TopicReply (and no second for the mention); carol: mention
      await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200); // alice: Follow
      await makeReply(bob, topicId, 'again'); // alice: TopicReply; carol: TopicReply (follows the topic)
      expect([await unread(alice), await unread(carol), await unread(bob)]).to.deep.equal([3, 2, 0]);
      await expectExact();

      // Read by listing ids, then by viewing the topic.
      const [newest] = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications;
      await api()
        .post('/api/v3/notifications/read')
        .set(alice.auth)
        .send({ ids: [newest.id] })
        .expect(200);
      expect(await unread(alice)).to.equal(2);
      await api().get(`/api/v3/topics/${topicId}`).set(carol.auth).expect(200);
      expect(await unread(carol)).to.equal(0);
      await expectExact();

      // Marked unread again behind the service's back (an UPDATE both ways), then deleted one by one, then all.
      await testEnv().sql('update notifications set read_at = case when read_at is null then now() end where user_id = $1', [
        carol.id,
      ]);
      expect(await unread(carol)).to.equal(2);
      const [first] = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications;
      await api().delete(`/api/v3/notifications/${first.id}`).set(alice.auth).expect(200);
      await expectExact();
      await api().delete('/api/v3/notifications/all').set(alice.auth).expect(200);
      expect(await unread(alice)).to.equal(0);

      // A deleted topic takes its notifications along, and a deleted user their count.
      const second = await makeTopic(alice, general, 'Another');
      await makeReply(bob, second);
      expect(await unread(alice)).to.equal(1);
      await api().delete(`/api/v3/topics/${second}`).set(admin.auth).expect(200);
      expect(await unread(alice)).to.equal(0);
      await testEnv().sql('delete from users where id = $1', [carol.id]);
      expect(await testEnv().sql('select * from notification_unread_counts where user_id = $1', [carol.id])).to.deep.equal([]);
      await expectExact();
    });

    it('stays exact under concurrent replies that notify the same users in every order, without deadlocks', async () => {
      const writers = await Promise.all(['w1', 'w2', 'w3', 'w4'].map((login) => makeUser(login)));
      const topics = [await makeTopic(alice, general, 'one'), await makeTopic(bob, general, 'two')];
      for (const topicId of topics) await api().post(`/api/v3/topics/${topicId}/follow`).set(carol.auth).expect(200);
      const bodies = ['@alice @bob @carol', '@carol @bob @alice', '@bob @carol @alice'];
      // Counted, not only answered: the unit of work would try a deadlocked write again and hide it.
      const conflicts = testEnv().container.get(ConflictRetries);
      const deadlocksBefore = conflicts.count('40P01');
      const statuses = await Promise.all(
        Array.from({ length: 36 }, (_, i) =>
          api()
            .post(`/api/v3/topics/${topics[i % 2]}/replies`)
            .set(writers[i % writers.length]!.auth)
            .send({ body: `${bodies[i % bodies.length]} #${i}` })
            .then((res) => res.status),
        ),
      );
      expect(statuses).to.deep.equal(Array(36).fill(200));
      expect(conflicts.count('40P01') - deadlocksBefore, `deadlocks: ${conflicts.recent().join(' | ')}`).to.equal(0);
      await expectExact();
      // Each reply notifies alice, bob and carol once each (author, follower or mention: one notification a reply).
      expect([await unread(alice), await unread(bob), await unread(carol)]).to.deep.equal([36, 36, 36]);
    });
  });
});

describe('user relations over HTTP', () => {
  let alice: TestUser;
  let bob: TestUser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
  });

  it('GET /users/:login answers the UserDetail with meta followed/blocked for the caller', async () => {
    const anonymous = await api().get('/api/v3/users/ALICE').expect(200);
    expect(anonymous.body.user).to.include({ id: alice.id, login: 'alice', email: '' });
    expect(anonymous.body.meta).to.deep.equal({ followed: false, blocked: false });
    await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200, { ok: 1 });
    await api().post('/api/v3/users/alice/block').set(bob.auth).expect(200, { ok: 1 });
    const seen = await api().get('/api/v3/users/alice.json').set(bob.auth).expect(200);
    expect(seen.body.meta).to.deep.equal({ followed: true, blocked: true });
    expect(seen.body.user).to.include({ followers_count: 1 });
    const own = await api().get('/api/v3/users/alice').set(alice.auth).expect(200);
    expect(own.body.user.email).to.equal('alice@example.com');
    await api().get('/api/v3/users/nobody').expect(404, { error: 'ResourceNotFound' });
  });

  it('follow and unfollow are idempotent, keep the counters true and notify once', async () => {
    await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200);
    await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200);
    let counts = await testEnv().sql<{ login: string; followers_count: number; following_count: number }>(
      "select login, followers_count, following_count from users where login in ('alice', 'bob') order by login",
    );
    expect(counts).to.deep.equal([
      { login: 'alice', followers_count: 1, following_count: 0 },
      { login: 'bob', followers_count: 0, following_count: 1 },
    ]);
    const notes = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications;
    expect(notes.map((n: { type: string }) => n.type)).to.deep.equal(['Follow']);
    await api().post('/api/v3/users/alice/unfollow').set(bob.auth).expect(200);
    await api().post('/api/v3/users/alice/unfollow').set(bob.auth).expect(200);
    counts = await testEnv().sql(
      "select login, followers_count, following_count from users where login in ('alice', 'bob') order by login",
    );
    expect(counts.map((c) => c.followers_count)).to.deep.equal([0, 0]);
  });

  it('answers ok to following, unfollowing, blocking or unblocking yourself, and changes nothing', async () => {
    for (const verb of ['follow', 'unfollow', 'block', 'unblock', 'follow', 'block']) {
      await api().post(`/api/v3/users/bob/${verb}`).set(bob.auth).expect(200, { ok: 1 });
    }
    const [counts] = await testEnv().sql<{ followers: number; following: number; follows: number; blocks: number }>(
      `select followers_count as followers, following_count as following,
              (select count(*)::int from user_follows) as follows, (select count(*)::int from user_blocks) as blocks
       from users where login = 'bob'`,
    );
    expect(counts).to.deep.equal({ followers: 0, following: 0, follows: 0, blocks: 0 });
    const notes = await api().get('/api/v3/notifications').set(bob.auth).expect(200);
    expect(notes.body.notifications).to.deep.equal([]);
  });

  it('refuses unknown users and anonymous callers', async () => {
    await api().post('/api/v3/users/nobody/follow').set(bob.auth).expect(404);
    await api().post('/api/v3/users/alice/follow').expect(401);
    await api().post('/api/v3/users/alice/unblock').expect(401);
  });

  it('block and unblock a node for the caller, feeding the topic list', async () => {
    const node = await makeNode('Noise');
    await makeTopic(alice, node);
    await api().post(`/api/v3/nodes/${node}/block`).set(bob.auth).expect(200, { ok: 1 });
    await api().post(`/api/v3/nodes/${node}/block`).set(bob.auth).expect(200, { ok: 1 });
    expect((await api().get('/api/v3/topics').set(bob.auth).expect(200)).body.topics).to.have.length(0);
    await api().post(`/api/v3/nodes/${node}/unblock`).set(bob.auth).expect(200, { ok: 1 });
    expect((await api().get('/api/v3/topics').set(bob.auth).expect(200)).body.topics).to.have.length(1);
    await api().post('/api/v3/nodes/9999/block').set(bob.auth).expect(404);
    await api().post(`/api/v3/nodes/${node}/block`).expect(401);
  });

  it('hostile logins never give a 500', async () => {
    for (const login of ["' or 1=1 --", '%00', '\u0000', 'x'.repeat(500), '💥', '..', 'a/b']) {
      const path = `/api/v3/users/${encodeURIComponent(login)}`;
      expect((await api().get(path)).status, path).to.be.below(500);
      expect((await api().post(`${path}/follow`).set(bob.auth)).status, path).to.be.below(500);
    }
  });
});
