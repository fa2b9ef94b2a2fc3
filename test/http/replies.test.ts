import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, topicRow, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

describe('replies over HTTP', () => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let mallory: TestUser;
  let topicId: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    admin = await makeUser('root', 'admin');
    mallory = await makeUser('mallory', 'blocked');
    topicId = await makeTopic(alice, await makeNode('General'), 'The topic');
  });

  describe('POST /api/v3/topics/:id/replies', () => {
    it('creates the reply and answers the ReplyDetail', async () => {
      const res = await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body: 'here we go' }).expect(200);
      expect(res.body.reply).to.have.all.keys(
        'id',
        'body',
        'body_html',
        'topic_id',
        'created_at',
        'updated_at',
        'likes_count',
        'liked_user_ids',
        'action',
        'deleted',
        'user',
        'abilities',
        'topic_title',
      );
      expect(res.body.reply).to.include({
        body: 'here we go',
        body_html: '<p>here we go</p>',
        topic_id: topicId,
        likes_count: 0,
        action: null,
        deleted: false,
        topic_title: 'The topic',
      });
      expect(res.body.reply.user.login).to.equal('bob');
      expect(res.body.reply.abilities).to.deep.equal({ update: true, destroy: true });
    });

    it("moves the topic's replies_count, replied_at, last reply and last activity", async () => {
      const before = await topicRow(topicId);
      const res = await api()
        .post(`/api/v3/topics/${topicId}/replies.json`)
        .set(bob.auth)
        .type('form')
        .send('body=hi')
        .expect(200);
      const topic = (await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic;
      expect(topic).to.include({ replies_count: 1, last_reply_user_id: bob.id, last_reply_user_login: 'bob' });
      expect(topic.replied_at).to.equal(res.body.reply.created_at);
      expect((await topicRow(topicId)).last_active_at).to.not.equal(before.last_active_at);
      const [user] = await testEnv().sql<{ replies_count: number }>('select replies_count from users where id = $1', [bob.id]);
      expect(user!.replies_count).to.equal(1);
    });

    it('answers 401, then 404, then 400 for a missing body, then 403 with a message for a blocked user', async () => {
      await api().post(`/api/v3/topics/${topicId}/replies`).send({ body: 'x' }).expect(401);
      await api()
        .post('/api/v3/topics/9999/replies')
        .set(bob.auth)
        .send({ body: 'x' })
        .expect(404, { error: 'ResourceNotFound' });
      const missing = await api().post(`/api/v3/topics/${topicId}/replies`).set(mallory.auth).send({}).expect(400);
      expect(missing.body).to.deep.equal({ error: 'ParameterInvalid', message: 'body is missing' });
      const denied = await api().post(`/api/v3/topics/${topicId}/replies`).set(mallory.auth).send({ body: 'x' }).expect(403);
      expect(denied.body.error).to.equal('AccessDenied');
      expect(denied.body.message).to.match(/does not have permission to reply/);
    });

    it('refuses a reply to a closed topic, and a blank body, with 400 RecordInvalid', async () => {
      const blank = await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body: '  ' }).expect(400);
      expect(blank.body.error).to.equal('RecordInvalid');
      await api().post(`/api/v3/topics/${topicId}/action?type=close`).set(alice.auth).expect(200);
      const closed = await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body: 'x' }).expect(400);
      expect(closed.body.error).to.equal('RecordInvalid');
      // Homeland's words, exactly as contract §6 gives them (issue 31).
      expect(closed.body).to.deep.equal({
        error: 'RecordInvalid',
        message: 'Topic has been closed, no longer accepting create or update replies.',
      });
      expect((await topicRow(topicId)).replies_count).to.equal(0);
    });

    it('answers 404 for a deleted topic', async () => {
      await api().delete(`/api/v3/topics/${topicId}`).set(admin.auth).expect(200);
      await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body: 'x' }).expect(404);
    });

    it('never lets scripts, javascript: links or event handlers reach body_html', async () => {
      for (const body of [
        '<script>alert(1)</script>',
        '[x](javascript:alert(1))',
        '<img src=x onerror=alert(1)>',
        '<a onclick="x()">y</a>',
      ]) {
        const res = await api().post(`/api/v3/topics/${topicId}/replies`).set(bob.auth).send({ body }).expect(200);
        const html: string = res.body.reply.body_html;
        expect(html, body).to.not.match(/<script|<[a-z][^>]*\son\w+\s*=|<[a-z][^>]*href="?javascript:/i);
      }
    });
  });

  describe('GET /api/v3/topics/:id/replies', () => {
    it('lists by id with deleted replies and system events in place, and the liked ids of the caller', async () => {
      const first = await makeReply(bob, topicId, 'first');
      const second = await makeReply(alice, topicId, 'second');
      await api().post(`/api/v3/topics/${topicId}/action?type=close`).set(alice.auth).expect(200);
      await api().delete(`/api/v3/replies/${second}`).set(alice.auth).expect(200);
      await api().post('/api/v3/likes').set(alice.auth).send({ obj_type: 'reply', obj_id: first }).expect(200);

      const res = await api().get(`/api/v3/topics/${topicId}/replies`).set(alice.auth).expect(200);
      const replies = res.body.replies;
      expect(replies.map((r: { id: number }) => r.id).slice(0, 2)).to.deep.equal([first, second]);
      expect(replies[0]).to.include({ body: 'first', deleted: false, action: null, likes_count: 1 });
      expect(replies[0].liked_user_ids).to.deep.equal([alice.id]);
      expect(replies[1]).to.include({ deleted: true, body: '', body_html: '' });
      expect(replies[1].abilities).to.deep.equal({ update: false, destroy: false });
      expect(replies[2]).to.include({ action: 'close', deleted: false });
      expect(replies[2].abilities).to.deep.equal({ update: false, destroy: false });
      expect(res.body.meta).to.deep.equal({ user_liked_reply_ids: [first] });

      const anonymous = await api().get(`/api/v3/topics/${topicId}/replies.json`).expect(200);
      expect(anonymous.body.meta).to.deep.equal({ user_liked_reply_ids: [] });
      expect(anonymous.body.replies[0].abilities).to.deep.equal({ update: false, destroy: false });
    });

    it('applies offset and limit (0 to 1000, default 20)', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 23; i++) ids.push(await makeReply(bob, topicId, `r${i}`));
      expect((await api().get(`/api/v3/topics/${topicId}/replies`).expect(200)).body.replies).to.have.length(20);
      const page = await api().get(`/api/v3/topics/${topicId}/replies?offset=20&limit=5`).expect(200);
      expect(page.body.replies.map((r: { id: number }) => r.id)).to.deep.equal(ids.slice(20));
      expect((await api().get(`/api/v3/topics/${topicId}/replies?limit=0`).expect(200)).body.replies).to.deep.equal([]);
      expect((await api().get(`/api/v3/topics/${topicId}/replies?limit=1000`).expect(200)).body.replies).to.have.length(23);
    });

    for (const query of ['limit=1001', 'limit=-1', 'limit=abc', 'offset=-1', 'offset=x']) {
      it(`answers 400 ParameterInvalid for ${query}`, async () => {
        const res = await api().get(`/api/v3/topics/${topicId}/replies?${query}`).expect(400);
        expect(res.body.error).to.equal('ParameterInvalid');
      });
    }

    it('answers 404 for an unknown or deleted topic', async () => {
      await api().get('/api/v3/topics/9999/replies').expect(404);
      await testEnv().sql('update topics set deleted_at = now() where id = $1', [topicId]);
      await api().get(`/api/v3/topics/${topicId}/replies`).expect(404);
    });
  });

  describe('GET /api/v3/replies/:id', () => {
    it('answers the ReplyDetail with topic_title', async () => {
      const id = await makeReply(bob, topicId, 'hello');
      const res = await api().get(`/api/v3/replies/${id}.json`).expect(200);
      expect(res.body.reply).to.include({ id, body: 'hello', topic_title: 'The topic', topic_id: topicId });
    });

    it('answers 404 for an unknown reply, a deleted reply and a reply of a deleted topic', async () => {
      await api().get('/api/v3/replies/9999').expect(404, { error: 'ResourceNotFound' });
      const deleted = await makeReply(bob, topicId);
      await api().delete(`/api/v3/replies/${deleted}`).set(bob.auth).expect(200);
      await api().get(`/api/v3/replies/${deleted}`).expect(404);
      const orphan = await makeReply(bob, topicId);
      await testEnv().sql('update topics set deleted_at = now() where id = $1', [topicId]);
      await api().get(`/api/v3/replies/${orphan}`).expect(404);
    });
  });

  describe('POST /api/v3/replies/:id', () => {
    it('lets the author update the body', async () => {
      const id = await makeReply(bob, topicId, 'old');
      const res = await api().post(`/api/v3/replies/${id}`).set(bob.auth).send({ body: '**new**' }).expect(200);
      expect(res.body.reply).to.include({ body: '**new**', body_html: '<p><strong>new</strong></p>', topic_title: 'The topic' });
    });

    it('checks the ability before the parameter: 403 for another member even without a body', async () => {
      const id = await makeReply(bob, topicId);
      await api().post(`/api/v3/replies/${id}`).set(alice.auth).send({}).expect(403, { error: 'AccessDenied' });
      const res = await api().post(`/api/v3/replies/${id}`).set(bob.auth).send({}).expect(400);
      expect(res.body).to.deep.equal({ error: 'ParameterInvalid', message: 'body is missing' });
      expect((await api().post(`/api/v3/replies/${id}`).set(bob.auth).send({ body: ' ' }).expect(400)).body.error).to.equal(
        'RecordInvalid',
      );
    });

    it('answers 401 without a token, 404 for an unknown reply, and lets an administrator edit', async () => {
      const id = await makeReply(bob, topicId);
      await api().post(`/api/v3/replies/${id}`).send({ body: 'x' }).expect(401);
      await api().post('/api/v3/replies/9999').set(bob.auth).send({ body: 'x' }).expect(404);
      await api().post(`/api/v3/replies/${id}`).set(admin.auth).send({ body: 'moderated' }).expect(200);
    });

    it('refuses a blocked author', async () => {
      const id = await makeReply(bob, topicId);
      await testEnv().sql("update users set role = 'blocked' where id = $1", [bob.id]);
      await api().post(`/api/v3/replies/${id}`).set(bob.auth).send({ body: 'x' }).expect(403);
    });
  });

  describe('DELETE /api/v3/replies/:id', () => {
    it("soft-deletes and recomputes the topic's counters and last-reply fields", async () => {
      const first = await makeReply(bob, topicId, 'first');
      const last = await makeReply(admin, topicId, 'last');
      await api().delete(`/api/v3/replies/${last}`).set(admin.auth).expect(200, { ok: 1 });
      const topic = (await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic;
      expect(topic).to.include({ replies_count: 1, last_reply_user_id: bob.id, last_reply_user_login: 'bob' });
      const [firstRow] = await testEnv().sql<{ created_at: Date }>('select created_at from replies where id = $1', [first]);
      expect(new Date(topic.replied_at).getTime()).to.equal(new Date(firstRow!.created_at).getTime());

      await api().delete(`/api/v3/replies/${first}`).set(bob.auth).expect(200);
      const empty = (await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic;
      expect(empty).to.include({ replies_count: 0, last_reply_user_id: null, last_reply_user_login: null, replied_at: null });
      const [row] = await testEnv().sql<{ deleted_by_id: number }>('select deleted_by_id from replies where id = $1', [first]);
      expect(row!.deleted_by_id).to.equal(bob.id);
    });

    it('answers 401, 404 (unknown or already deleted) and 403 to other members', async () => {
      const id = await makeReply(bob, topicId);
      await api().delete(`/api/v3/replies/${id}`).expect(401);
      await api().delete(`/api/v3/replies/${id}`).set(alice.auth).expect(403, { error: 'AccessDenied' });
      await api().delete(`/api/v3/replies/${id}`).set(bob.auth).expect(200);
      await api().delete(`/api/v3/replies/${id}`).set(bob.auth).expect(404);
      await api().delete('/api/v3/replies/9999').set(bob.auth).expect(404);
    });

    it('refuses to delete a system event', async () => {
      await api().post(`/api/v3/topics/${topicId}/action?type=close`).set(admin.auth).expect(200);
      const [event] = await testEnv().sql<{ id: number }>('select id from replies where action is not null');
      await api().delete(`/api/v3/replies/${event!.id}`).set(admin.auth).expect(403);
    });
  });

  describe('system events', () => {
    it('appear among the replies with action set, and are not counted', async () => {
      await makeReply(bob, topicId);
      for (const type of ['excellent', 'unexcellent', 'close', 'open', 'ban']) {
        await api().post(`/api/v3/topics/${topicId}/action?type=${type}`).set(admin.auth).expect(200);
      }
      const res = await api().get(`/api/v3/topics/${topicId}/replies`).expect(200);
      expect(res.body.replies.map((r: { action: string | null }) => r.action)).to.deep.equal([
        null,
        'excellent',
        'unexcellent',
        'close',
        'reopen',
        'ban',
      ]);
      const topic = (await api().get(`/api/v3/topics/${topicId}`).set(admin.auth).expect(200)).body.topic;
      expect(topic).to.include({ replies_count: 1, last_reply_user_login: 'bob' });
    });
  });

  describe('the owner-may-delete rule with real replies', () => {
    it('lets the owner delete with only their own replies, not once another user replied', async () => {
      await makeReply(alice, topicId);
      let topic = (await api().get('/api/v3/topics').set(alice.auth).expect(200)).body.topics[0];
      expect(topic.abilities.destroy).to.equal(true);
      const other = await makeReply(bob, topicId);
      topic = (await api().get('/api/v3/topics').set(alice.auth).expect(200)).body.topics[0];
      expect(topic.abilities.destroy).to.equal(false);
      await api().delete(`/api/v3/topics/${topicId}`).set(alice.auth).expect(403);
      await api().delete(`/api/v3/replies/${other}`).set(bob.auth).expect(200);
      await api().delete(`/api/v3/topics/${topicId}`).set(alice.auth).expect(200);
    });
  });
});
