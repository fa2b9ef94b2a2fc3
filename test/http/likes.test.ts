import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

describe('likes over HTTP', () => {
  let alice: TestUser;
  let bob: TestUser;
  let topicId: number;
  let replyId: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    topicId = await makeTopic(alice, await makeNode('General'));
    replyId = await makeReply(alice, topicId);
  });

  it('likes and unlikes a topic, idempotently, answering the count', async () => {
    const like = () => api().post('/api/v3/likes').set(bob.auth).send({ obj_type: 'topic', obj_id: topicId });
    expect((await like().expect(200)).body).to.deep.equal({ obj_type: 'topic', obj_id: topicId, count: 1 });
    expect((await like().expect(200)).body.count).to.equal(1);
    const shown = await api().get(`/api/v3/topics/${topicId}`).set(bob.auth).expect(200);
    expect(shown.body.meta.liked).to.equal(true);
    expect(shown.body.topic.likes_count).to.equal(1);
    const unlike = () => api().delete('/api/v3/likes').set(bob.auth).send({ obj_type: 'topic', obj_id: topicId });
    expect((await unlike().expect(200)).body).to.deep.equal({ obj_type: 'topic', obj_id: topicId, count: 0 });
    expect((await unlike().expect(200)).body.count).to.equal(0);
  });

  it('likes a reply, reflected in liked_user_ids and the caller meta', async () => {
    const res = await api()
      .post('/api/v3/likes.json')
      .set(bob.auth)
      .type('form')
      .send(`obj_type=reply&obj_id=${replyId}`)
      .expect(200);
    expect(res.body).to.deep.equal({ obj_type: 'reply', obj_id: replyId, count: 1 });
    const list = await api().get(`/api/v3/topics/${topicId}/replies`).set(bob.auth).expect(200);
    expect(list.body.replies[0]).to.include({ likes_count: 1 });
    expect(list.body.replies[0].liked_user_ids).to.deep.equal([bob.id]);
    expect(list.body.meta.user_liked_reply_ids).to.deep.equal([replyId]);
  });

  it('ignores liking your own content', async () => {
    const res = await api().post('/api/v3/likes').set(alice.auth).send({ obj_type: 'topic', obj_id: topicId }).expect(200);
    expect(res.body.count).to.equal(0);
    expect(await testEnv().sql('select * from likes')).to.deep.equal([]);
  });

  it('lets blocked users like', async () => {
    const mallory = await makeUser('mallory', 'blocked');
    const res = await api().post('/api/v3/likes').set(mallory.auth).send({ obj_type: 'reply', obj_id: replyId }).expect(200);
    expect(res.body.count).to.equal(1);
  });

  it('answers 401 without a token, 400 for bad parameters, 404 for unknown or deleted targets', async () => {
    await api().post('/api/v3/likes').send({ obj_type: 'topic', obj_id: topicId }).expect(401);
    for (const body of [
      {},
      { obj_type: 'topic' },
      { obj_type: 'user', obj_id: 1 },
      { obj_type: 'topic', obj_id: 'x' },
      { obj_type: ['topic'], obj_id: 1 },
    ]) {
      const res = await api().post('/api/v3/likes').set(bob.auth).send(body).expect(400);
      expect(res.body.error, JSON.stringify(body)).to.equal('ParameterInvalid');
    }
    await api().post('/api/v3/likes').set(bob.auth).send({ obj_type: 'topic', obj_id: 9999 }).expect(404);
    await api().delete(`/api/v3/replies/${replyId}`).set(alice.auth).expect(200);
    await api().post('/api/v3/likes').set(bob.auth).send({ obj_type: 'reply', obj_id: replyId }).expect(404);
  });

  it('puts a topic in the popular list once more than 5 users like it', async () => {
    const users = await Promise.all(['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map((login) => makeUser(login)));
    for (const user of users.slice(0, 5)) {
      await api().post('/api/v3/likes').set(user.auth).send({ obj_type: 'topic', obj_id: topicId }).expect(200);
    }
    expect((await api().get('/api/v3/topics?type=popular').expect(200)).body.topics).to.have.length(0);
    await api().post('/api/v3/likes').set(users[5]!.auth).send({ obj_type: 'topic', obj_id: topicId }).expect(200);
    const popular = (await api().get('/api/v3/topics?type=popular').expect(200)).body.topics;
    expect(popular.map((t: { id: number; likes_count: number }) => [t.id, t.likes_count])).to.deep.equal([[topicId, 6]]);
  });
});
