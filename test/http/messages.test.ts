import { expect } from 'chai';
import { api, makeGroup, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/** Starts a conversation as `from`, to `to`; returns its id. */
async function send(from: TestUser, to: string[] | string, title = 'About the meetup', body = 'Shall we meet at six?') {
  const res = await api().post('/api/v3/messages').set(from.auth).send({ to, title, body }).expect(200);
  return res.body.message.id as number;
}

const reply = (from: TestUser, id: number, body = 'Six is fine.') =>
  api().post(`/api/v3/messages/${id}/replies`).set(from.auth).send({ body });

const unread = async (user: TestUser) =>
  (await api().get('/api/v3/messages/unread_count').set(user.auth).expect(200)).body.count as number;

describe('private messages over HTTP (contract §24)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let root: TestUser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    carol = await makeUser('carol');
    root = await makeUser('root', 'admin');
  });

  it('starts a conversation that its participants read, list and answer, with their unread counts', async () => {
    const res = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['Bob'], title: ' About the meetup ', body: 'Shall we meet at **six**?' })
      .expect(200);
    const message = res.body.message;
    expect(message).to.include({ title: 'About the meetup', body: 'Shall we meet at **six**?', replies_count: 0 });
    expect(message.body_html).to.contain('<strong>six</strong>');
    expect(message.participants.map((user: { login: string }) => user.login)).to.deep.equal(['alice', 'bob']);
    expect(message.user.login).to.equal('alice');

    expect(await unread(alice)).to.equal(0);
    expect(await unread(bob)).to.equal(1);
    const listed = (await api().get('/api/v3/messages').set(bob.auth).expect(200)).body.messages;
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ id: message.id, unread_replies_count: 1 });
    expect(listed[0]).not.to.have.property('body');

    await api().get(`/api/v3/messages/${message.id}`).set(bob.auth).expect(200);
    expect(await unread(bob)).to.equal(0);
    await reply(bob, message.id).expect(200, { ok: 1 });
    expect(await unread(bob)).to.equal(0, 'one’s own message is read');
    expect(await unread(alice)).to.equal(1);

    const replies = (await api().get(`/api/v3/messages/${message.id}/replies`).set(alice.auth).expect(200)).body.replies;
    expect(replies.map((r: { body: string; user: { login: string } }) => [r.user.login, r.body])).to.deep.equal([
      ['bob', 'Six is fine.'],
    ]);
    expect(await unread(alice)).to.equal(0);
    const [item] = (await api().get('/api/v3/messages').set(alice.auth).expect(200)).body.messages;
    expect(item).to.include({ replies_count: 1, last_reply_user_login: 'bob', unread_replies_count: 0 });
  });

  it('does not exist for anyone else: 404 to another member and to an administrator, on every path', async () => {
    const id = await send(alice, ['bob']);
    for (const outsider of [carol, root]) {
      await api().get(`/api/v3/messages/${id}`).set(outsider.auth).expect(404, { error: 'ResourceNotFound' });
      await api().get(`/api/v3/messages/${id}/replies`).set(outsider.auth).expect(404);
      await reply(outsider, id).expect(404);
      await api()
        .post(`/api/v3/messages/${id}/participants`)
        .set(outsider.auth)
        .send({ to: ['carol'] })
        .expect(404);
      await api().delete(`/api/v3/messages/${id}/participants/me`).set(outsider.auth).expect(404);
      expect((await api().get('/api/v3/messages').set(outsider.auth).expect(200)).body.messages).to.deep.equal([]);
      expect(await unread(outsider)).to.equal(0);
    }
    // Nor is it a topic, for anyone, its participants included.
    for (const reader of [alice, bob, root]) {
      await api().get(`/api/v3/topics/${id}`).set(reader.auth).expect(404);
      await api().get(`/api/v3/topics/${id}/replies`).set(reader.auth).expect(404);
      await api().post(`/api/v3/topics/${id}/replies`).set(reader.auth).send({ body: 'hi' }).expect(404);
    }
    await api().get(`/api/v3/messages/${id}`).expect(401);
    await api().get('/api/v3/messages').expect(401);
    await api().get('/api/v3/messages/unread_count').expect(401);
  });

  it('keeps conversations out of the forum: topic lists and the node counts do not carry them', async () => {
    const node = await makeNode('General');
    await makeTopic(alice, node, 'A public topic');
    await send(alice, ['bob'], 'Secret plans');
    for (const reader of [alice, bob, root, null]) {
      const res = await (reader ? api().get('/api/v3/topics').set(reader.auth) : api().get('/api/v3/topics')).expect(200);
      expect(res.body.topics.map((t: { title: string }) => t.title)).to.deep.equal(['A public topic']);
    }
    const unreadTopics = await api().get('/api/v3/topics/unread_count').set(bob.auth).expect(200);
    expect(unreadTopics.body).to.deep.equal({ unread: 0, new: 1 });
  });

  it('takes groups, whose members take part while they are members', async () => {
    const team = await makeGroup('ruby-team', [bob, carol]);
    const id = await send(alice, 'ruby-team');
    await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(200);
    const detail = (await api().get(`/api/v3/messages/${id}`).set(bob.auth).expect(200)).body.message;
    expect(detail.groups).to.deep.equal([{ name: 'ruby-team', title: '' }]);
    await testEnv().sql('delete from group_members where group_id = $1 and user_id = $2', [team, carol.id]);
    await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(404);
  });

  it('lets any participant add people, and a participant leave, after which it is 404 to them until added back', async () => {
    const id = await send(alice, ['bob']);
    await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(404);
    await api().post(`/api/v3/messages/${id}/participants`).set(bob.auth).send({ to: 'carol' }).expect(200, { ok: 1 });
    const detail = (await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(200)).body.message;
    expect(detail.participants.map((u: { login: string }) => u.login)).to.deep.equal(['alice', 'bob', 'carol']);

    await api().delete(`/api/v3/messages/${id}/participants/me`).set(bob.auth).expect(200, { ok: 1 });
    await api().get(`/api/v3/messages/${id}`).set(bob.auth).expect(404);
    await reply(bob, id).expect(404);
    expect((await api().get('/api/v3/messages').set(bob.auth).expect(200)).body.messages).to.deep.equal([]);
    const after = (await api().get(`/api/v3/messages/${id}`).set(alice.auth).expect(200)).body.message;
    expect(after.participants.map((u: { login: string }) => u.login)).to.deep.equal(['alice', 'carol']);

    await api()
      .post(`/api/v3/messages/${id}/participants`)
      .set(alice.auth)
      .send({ to: ['bob'] })
      .expect(200);
    await api().get(`/api/v3/messages/${id}`).set(bob.auth).expect(200);
  });

  it('refuses a sender whom a recipient blocked, without saying who', async () => {
    await testEnv().sql('insert into user_blocks (user_id, blocked_user_id) values ($1, $2)', [carol.id, alice.id]);
    const res = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['bob', 'carol'], title: 't', body: 'b' })
      .expect(403);
    expect(res.body.message).to.equal('One of the people you named does not accept messages from you.');
    expect(JSON.stringify(res.body)).not.to.contain('carol');
    const id = await send(alice, ['bob']);
    const added = await api()
      .post(`/api/v3/messages/${id}/participants`)
      .set(alice.auth)
      .send({ to: ['carol'] })
      .expect(403);
    expect(JSON.stringify(added.body)).not.to.contain('carol');
    // Someone else may add her: she did not block them.
    await api()
      .post(`/api/v3/messages/${id}/participants`)
      .set(bob.auth)
      .send({ to: ['carol'] })
      .expect(200);
    const [row] = await testEnv().sql<{ count: number }>('select count(*)::int as count from topics where node_id is null');
    expect(row!.count).to.equal(1, 'the refused conversation left nothing behind');
  });

  it('checks who and what: unknown names, nobody besides oneself, more than 20, blank title or body', async () => {
    const expectInvalid = async (body: object, message: RegExp) => {
      const res = await api().post('/api/v3/messages').set(alice.auth).send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.message).to.match(message);
    };
    await expectInvalid({ to: ['nobody-here'], title: 't', body: 'b' }, /to names no user or group: nobody-here/);
    await expectInvalid({ to: ['alice'], title: 't', body: 'b' }, /needs someone besides you/);
    await expectInvalid({ to: [], title: 't', body: 'b' }, /needs someone besides you/);
    await expectInvalid({ title: 't', body: 'b' }, /to is missing/);
    await expectInvalid({ to: ['bob'], title: '  ', body: 'b' }, /Title/);
    await expectInvalid({ to: ['bob'], title: 't', body: '' }, /Body/);
    const many = [];
    for (let i = 0; i < 20; i++) many.push((await makeUser(`many${i}`)).login);
    await expectInvalid({ to: many, title: 't', body: 'b' }, /at most 20 participants/);
    await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: many.slice(0, 19), title: 't', body: 'b' })
      .expect(200);
  });

  it('holds messages to the rules of posting: a blocked account, a silenced one, and a new account’s daily limit', async () => {
    await testEnv().sql("update users set role = 'blocked' where id = $1", [carol.id]);
    const blocked = await api()
      .post('/api/v3/messages')
      .set(carol.auth)
      .send({ to: ['bob'], title: 't', body: 'b' });
    expect(blocked.status).to.be.oneOf([401, 403]);
    await testEnv().sql("update users set silenced_until = now() + interval '1 day' where id = $1", [bob.id]);
    const silenced = await api()
      .post('/api/v3/messages')
      .set(bob.auth)
      .send({ to: ['alice'], title: 't', body: 'b' })
      .expect(403);
    expect(silenced.body.message).to.match(/silenced/);
    const id = await send(alice, ['bob']);
    await reply(bob, id).expect(403);

    const newcomer = await makeUser('newcomer');
    await testEnv().sql('update users set self_registered = true, created_at = now() where id = $1', [newcomer.id]);
    const first = await send(newcomer, ['alice'], 'one', 'first');
    for (let i = 0; i < 4; i++) await reply(newcomer, first, `message ${i}`).expect(200);
    const refused = await reply(newcomer, first, 'one too many').expect(429);
    expect(refused.body.message).to.match(/5 messages/);
  });
});
