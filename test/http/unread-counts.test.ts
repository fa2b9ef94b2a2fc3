import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/**
 * The unread count is a stored count that triggers on `notifications` keep (issue 18): it must follow every
 * statement that writes, reads or deletes a notification, whoever runs it.
 */
describe('stored unread counts', () => {
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

  const unread = async (user: TestUser) =>
    (await api().get('/api/v3/notifications/unread_count').set(user.auth).expect(200)).body.count as number;

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
    await expectExact();
    // Each reply notifies alice, bob and carol once each (author, follower or mention: one notification a reply).
    expect([await unread(alice), await unread(bob), await unread(carol)]).to.deep.equal([36, 36, 36]);
  });
});
