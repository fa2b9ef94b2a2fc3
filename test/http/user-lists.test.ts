import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

describe("a user's lists over HTTP", () => {
  let alice: TestUser;
  let bob: TestUser;
  let node: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    node = await makeNode('General');
  });

  const ids = (items: { id: number }[]) => items.map((item) => item.id);

  it('GET /users/:login/topics: visible topics, by recent, likes or replies', async () => {
    const first = await makeTopic(alice, node, 'first');
    const second = await makeTopic(alice, node, 'second');
    const gone = await makeTopic(alice, node, 'gone');
    await makeTopic(bob, node, "bob's");
    await api().delete(`/api/v3/topics/${gone}`).set(alice.auth).expect(200);
    await testEnv().sql('update topics set likes_count = 9 where id = $1', [first]);
    await makeReply(bob, second);

    const recent = await api().get('/api/v3/users/alice/topics').expect(200);
    expect(ids(recent.body.topics)).to.deep.equal([second, first]);
    expect(recent.body.topics[0]).to.include({ deleted: false, title: 'second' });
    expect(ids((await api().get('/api/v3/users/alice/topics.json?order=likes').expect(200)).body.topics)).to.deep.equal([
      first,
      second,
    ]);
    expect(ids((await api().get('/api/v3/users/ALICE/topics?order=replies').expect(200)).body.topics)).to.deep.equal([
      second,
      first,
    ]);
    expect(ids((await api().get('/api/v3/users/alice/topics?limit=1&offset=1').expect(200)).body.topics)).to.deep.equal([first]);
    const mine = await api().get('/api/v3/users/alice/topics').set(alice.auth).expect(200);
    expect(mine.body.topics[0].abilities.update).to.equal(true);
  });

  it('GET /users/:login/replies: visible replies as ReplyDetail, newest first, no system events', async () => {
    const topic = await makeTopic(alice, node, 'The topic');
    const first = await makeReply(bob, topic, 'one');
    const second = await makeReply(bob, topic, 'two');
    const deleted = await makeReply(bob, topic, 'three');
    await api().delete(`/api/v3/replies/${deleted}`).set(bob.auth).expect(200);
    await api().post(`/api/v3/topics/${topic}/action?type=close`).set(alice.auth).expect(200);
    const res = await api().get('/api/v3/users/bob/replies').expect(200);
    expect(ids(res.body.replies)).to.deep.equal([second, first]);
    expect(res.body.replies[0]).to.include({ body: 'two', topic_title: 'The topic' });
    expect((await api().get('/api/v3/users/alice/replies').expect(200)).body.replies).to.deep.equal([]);
  });

  it('GET /users/:login/favorites: the topics favorited, latest first', async () => {
    const a = await makeTopic(alice, node, 'a');
    const b = await makeTopic(alice, node, 'b');
    await api().post(`/api/v3/topics/${b}/favorite`).set(bob.auth).expect(200);
    await api().post(`/api/v3/topics/${a}/favorite`).set(bob.auth).expect(200);
    const res = await api().get('/api/v3/users/bob/favorites').expect(200);
    expect(ids(res.body.topics)).to.deep.equal([a, b]);
  });

  it('GET /users/:login/followers and /following: Users', async () => {
    const carol = await makeUser('carol');
    await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200);
    await api().post('/api/v3/users/alice/follow').set(carol.auth).expect(200);
    const followers = await api().get('/api/v3/users/alice/followers').expect(200);
    expect(followers.body.followers.map((u: { login: string }) => u.login)).to.have.members(['bob', 'carol']);
    expect(followers.body.followers[0]).to.have.all.keys('id', 'login', 'name', 'avatar_url', 'abilities');
    const following = await api().get('/api/v3/users/bob/following.json').expect(200);
    expect(following.body.following.map((u: { login: string }) => u.login)).to.deep.equal(['alice']);
  });

  it('lists followers and following oldest relation first, as homeland does (issue 31, contract §6)', async () => {
    const carol = await makeUser('carol');
    const dave = await makeUser('dave');
    const logins = (res: { body: Record<string, { login: string }[]> }, key: string) => res.body[key]!.map((u) => u.login);
    // Followed in an order that is neither the users' ids nor their reverse.
    for (const follower of [dave, bob, carol]) await api().post('/api/v3/users/alice/follow').set(follower.auth).expect(200);
    for (const login of ['carol', 'alice', 'dave']) await api().post(`/api/v3/users/${login}/follow`).set(bob.auth).expect(200);
    const at = async (followerId: number, followeeId: number, minutes: number) =>
      testEnv().sql(
        'update user_follows set created_at = now() - make_interval(mins => $3) where follower_id = $1 and followee_id = $2',
        [followerId, followeeId, minutes],
      );
    await at(dave.id, alice.id, 30);
    await at(bob.id, alice.id, 20);
    await at(carol.id, alice.id, 10);
    await at(bob.id, carol.id, 30);
    await at(bob.id, dave.id, 10);
    const followers = await api().get('/api/v3/users/alice/followers').expect(200);
    expect(logins(followers, 'followers')).to.deep.equal(['dave', 'bob', 'carol']);
    const following = await api().get('/api/v3/users/bob/following').expect(200);
    expect(logins(following, 'following')).to.deep.equal(['carol', 'alice', 'dave']);
    const paged = await api().get('/api/v3/users/alice/followers?offset=1&limit=1').expect(200);
    expect(logins(paged, 'followers')).to.deep.equal(['bob']);
  });

  it('answers 404 for an unknown user and 400 for a bad limit on every list', async () => {
    for (const list of ['topics', 'replies', 'favorites', 'followers', 'following']) {
      await api().get(`/api/v3/users/nobody/${list}`).expect(404, { error: 'ResourceNotFound' });
      for (const query of ['limit=0', 'limit=151', 'limit=x', 'offset=-1']) {
        const res = await api().get(`/api/v3/users/alice/${list}?${query}`).expect(400);
        expect(res.body.error).to.equal('ParameterInvalid');
      }
    }
  });
});
