import { expect } from 'chai';
import { api, insertReply, makeNode, makeTopic, makeUser, topicRow, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

describe('topic writes over HTTP', () => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let mallory: TestUser;
  let general: number;
  let ruby: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    admin = await makeUser('root', 'admin');
    mallory = await makeUser('mallory', 'blocked');
    general = await makeNode('General');
    ruby = await makeNode('Ruby');
  });

  const noPointId = async () => (await testEnv().sql<{ id: number }>("select id from nodes where name = 'NoPoint'"))[0]!.id;

  describe('POST /api/v3/topics', () => {
    it('creates a topic owned by the caller and answers its detail (JSON body)', async () => {
      const res = await api()
        .post('/api/v3/topics')
        .set(alice.auth)
        .send({ title: 'Hello', body: 'here we go', node_id: general })
        .expect(200);
      expect(res.body.topic).to.include({
        title: 'Hello',
        body: 'here we go',
        body_html: '<p>here we go</p>',
        node_id: general,
        hits: 0,
      });
      expect(res.body.topic.user.id).to.equal(alice.id);
      expect(res.body.topic.abilities.update).to.equal(true);
    });

    it('accepts a form-encoded body and the .json suffix', async () => {
      const res = await api()
        .post('/api/v3/topics.json')
        .set(alice.auth)
        .type('form')
        .send(`title=Form&body=b&node_id=${general}`)
        .expect(200);
      expect(res.body.topic.title).to.equal('Form');
    });

    it('answers 401 without a token, before looking at parameters', async () => {
      const res = await api().post('/api/v3/topics').send({}).expect(401);
      expect(res.body.error).to.equal('Unauthorized');
      expect(res.headers['www-authenticate']).to.match(/^Bearer realm="forum"/);
    });

    for (const missing of ['title', 'body', 'node_id'] as const) {
      it(`answers 400 ParameterInvalid when ${missing} is missing`, async () => {
        const fields: Record<string, unknown> = { title: 't', body: 'b', node_id: general };
        delete fields[missing];
        const res = await api().post('/api/v3/topics').set(alice.auth).send(fields).expect(400);
        expect(res.body).to.deep.equal({ error: 'ParameterInvalid', message: `${missing} is missing` });
      });
    }

    it('checks parameters before the permission, then answers 403 with a message for a blocked user', async () => {
      await api().post('/api/v3/topics').set(mallory.auth).send({ title: 't' }).expect(400);
      const res = await api()
        .post('/api/v3/topics')
        .set(mallory.auth)
        .send({ title: 't', body: 'b', node_id: general })
        .expect(403);
      expect(res.body.error).to.equal('AccessDenied');
      expect(res.body.message).to.match(/does not have permission to create topics/);
    });

    it('answers 400 RecordInvalid for a blank title and 404 for an unknown node (contract §6), saving nothing', async () => {
      const blank = await api()
        .post('/api/v3/topics')
        .set(alice.auth)
        .send({ title: '  ', body: 'b', node_id: general })
        .expect(400);
      expect(blank.body.error).to.equal('RecordInvalid');
      expect(blank.body.message).to.match(/^Validation failed: Title/);
      const unknown = await api()
        .post('/api/v3/topics')
        .set(alice.auth)
        .send({ title: 't', body: 'b', node_id: 9999 })
        .expect(404);
      expect(unknown.body.error).to.equal('ResourceNotFound');
      expect(await testEnv().sql('select id from topics')).to.deep.equal([]);
    });
  });

  describe('POST /api/v3/topics/:id', () => {
    let id: number;
    beforeEach(async () => {
      id = await makeTopic(alice, general, 'Old', 'old body');
    });

    it('lets the owner update title, body and node', async () => {
      const res = await api()
        .post(`/api/v3/topics/${id}`)
        .set(alice.auth)
        .send({ title: 'New', body: '*new*', node_id: ruby })
        .expect(200);
      expect(res.body.topic).to.include({
        title: 'New',
        body: '*new*',
        body_html: '<p><em>new</em></p>',
        node_id: ruby,
        lock_node: false,
      });
    });

    it('answers 403 without a message to another member, before checking parameters', async () => {
      await api().post(`/api/v3/topics/${id}`).set(bob.auth).send({}).expect(403, { error: 'AccessDenied' });
    });

    it('answers 400 to the owner for a missing parameter, and 404 for an unknown topic', async () => {
      const res = await api().post(`/api/v3/topics/${id}`).set(alice.auth).send({ title: 'x', body: 'y' }).expect(400);
      expect(res.body.message).to.equal('node_id is missing');
      await api().post('/api/v3/topics/9999').set(alice.auth).send({}).expect(404, { error: 'ResourceNotFound' });
      await api().post('/api/v3/topics/9999').send({}).expect(401);
    });

    it('locks the node when an administrator changes it, and notifies the owner', async () => {
      const res = await api()
        .post(`/api/v3/topics/${id}`)
        .set(admin.auth)
        .send({ title: 'Old', body: 'old body', node_id: ruby })
        .expect(200);
      expect(res.body.topic).to.include({ node_id: ruby, lock_node: true });
      const notes = await testEnv().sql('select user_id, actor_id, type, topic_id, node_id from notifications');
      expect(notes).to.deep.equal([{ user_id: alice.id, actor_id: admin.id, type: 'NodeChanged', topic_id: id, node_id: ruby }]);
    });

    it('keeps a locked node when the owner submits another, still updating title and body', async () => {
      await testEnv().sql('update topics set lock_node = true where id = $1', [id]);
      const res = await api()
        .post(`/api/v3/topics/${id}`)
        .set(alice.auth)
        .send({ title: 'New', body: 'new', node_id: ruby })
        .expect(200);
      expect(res.body.topic).to.include({ title: 'New', body: 'new', node_id: general, lock_node: true });
    });

    it('does not lock the node when an administrator keeps it', async () => {
      const res = await api()
        .post(`/api/v3/topics/${id}`)
        .set(admin.auth)
        .send({ title: 'T', body: 'b', node_id: general })
        .expect(200);
      expect(res.body.topic.lock_node).to.equal(false);
    });
  });

  describe('DELETE /api/v3/topics/:id', () => {
    let id: number;
    beforeEach(async () => {
      id = await makeTopic(alice, general);
    });

    it('soft-deletes for the owner, recording who, then answers 404', async () => {
      await api().delete(`/api/v3/topics/${id}`).set(alice.auth).expect(200, { ok: 1 });
      const row = await topicRow(id);
      expect(row.deleted_by_id).to.equal(alice.id);
      expect(row.deleted_at).to.not.equal(null);
      await api().get(`/api/v3/topics/${id}`).expect(404);
      await api().delete(`/api/v3/topics/${id}`).set(alice.auth).expect(404);
    });

    it('refuses the owner once someone else replied, but not an administrator', async () => {
      await insertReply(id, bob.id);
      await api().delete(`/api/v3/topics/${id}`).set(alice.auth).expect(403, { error: 'AccessDenied' });
      await api().delete(`/api/v3/topics/${id}`).set(admin.auth).expect(200, { ok: 1 });
      expect((await topicRow(id)).deleted_by_id).to.equal(admin.id);
    });

    it('lets the owner delete with only their own or deleted replies', async () => {
      await insertReply(id, alice.id);
      await insertReply(id, bob.id, { deleted: true });
      await api().delete(`/api/v3/topics/${id}`).set(alice.auth).expect(200);
    });

    it('answers 401 without a token and 403 to other members', async () => {
      await api().delete(`/api/v3/topics/${id}`).expect(401);
      await api().delete(`/api/v3/topics/${id}`).set(bob.auth).expect(403, { error: 'AccessDenied' });
    });
  });

  describe('follow, unfollow, favorite, unfavorite', () => {
    for (const verb of ['follow', 'unfollow', 'favorite', 'unfavorite']) {
      it(`POST /topics/:id/${verb} needs a user and a visible topic, and is idempotent`, async () => {
        const id = await makeTopic(alice, general);
        await api().post(`/api/v3/topics/${id}/${verb}`).expect(401);
        await api().post(`/api/v3/topics/9999/${verb}`).set(bob.auth).expect(404);
        await api().post(`/api/v3/topics/${id}/${verb}`).set(bob.auth).expect(200, { ok: 1 });
        await api().post(`/api/v3/topics/${id}/${verb}.json`).set(mallory.auth).expect(200, { ok: 1 });
      });
    }
  });

  describe('POST /api/v3/topics/:id/ban', () => {
    it('moves the topic to NoPoint, locks it, records a ban event and notifies the owner', async () => {
      const id = await makeTopic(alice, general);
      await api().post(`/api/v3/topics/${id}/ban`).set(admin.auth).expect(200, { ok: 1 });
      const res = await api().get(`/api/v3/topics/${id}`).set(alice.auth).expect(200);
      expect(res.body.topic).to.include({ node_id: await noPointId(), node_name: 'NoPoint', lock_node: true });
      const events = await testEnv().sql('select action, user_id from replies where topic_id = $1', [id]);
      expect(events).to.deep.equal([{ action: 'ban', user_id: admin.id }]);
      const [note] = await testEnv().sql<{ type: string; user_id: number }>('select type, user_id from notifications');
      expect(note).to.deep.equal({ type: 'NodeChanged', user_id: alice.id });
    });

    it('answers 403 with a message to members, and the topic stays', async () => {
      const id = await makeTopic(alice, general);
      const res = await api().post(`/api/v3/topics/${id}/ban`).set(alice.auth).expect(403);
      expect(res.body.message).to.match(/permission to ban/);
      expect((await topicRow(id)).node_id).to.equal(general);
    });

    it('hides a banned topic from anonymous lists (NoPoint is hidden)', async () => {
      const id = await makeTopic(alice, general);
      await api().post(`/api/v3/topics/${id}/ban`).set(admin.auth).expect(200);
      expect((await api().get('/api/v3/topics').expect(200)).body.topics).to.deep.equal([]);
    });

    it('leaves a banned topic out of the default list for signed-in users too, but lists it by node_id (issue 31)', async () => {
      const banned = await makeTopic(alice, general, 'banned');
      const kept = await makeTopic(alice, general, 'kept');
      await api().post(`/api/v3/topics/${banned}/ban`).set(admin.auth).expect(200);
      const ids = (res: { body: { topics: { id: number }[] } }) => res.body.topics.map((t) => t.id);
      for (const caller of [alice, bob, admin]) {
        for (const type of ['last_actived', 'recent', 'no_reply']) {
          const res = await api().get(`/api/v3/topics?type=${type}`).set(caller.auth).expect(200);
          expect(ids(res), `${caller.login} ${type}`).to.deep.equal([kept]);
        }
      }
      expect(ids(await api().get('/api/v3/topics').expect(200))).to.deep.equal([kept]);
      const byNode = await api()
        .get(`/api/v3/topics?node_id=${await noPointId()}`)
        .set(admin.auth)
        .expect(200);
      expect(ids(byNode)).to.deep.equal([banned]);
      expect(
        ids(
          await api()
            .get(`/api/v3/topics?node_id=${await noPointId()}`)
            .expect(200),
        ),
      ).to.deep.equal([banned]);
    });
  });

  describe('POST /api/v3/topics/:id/action', () => {
    let id: number;
    beforeEach(async () => {
      id = await makeTopic(alice, general);
    });

    it('marks excellent and back to normal (administrators), recording the events', async () => {
      await api().post(`/api/v3/topics/${id}/action?type=excellent`).set(admin.auth).expect(200, { ok: 1 });
      let topic = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic;
      expect(topic).to.include({ grade: 'excellent', excellent: 1 });
      expect((await api().get('/api/v3/topics?type=excellent').expect(200)).body.topics).to.have.length(1);
      await api().post(`/api/v3/topics/${id}/action`).set(admin.auth).send({ type: 'normal' }).expect(200, { ok: 1 });
      topic = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic;
      expect(topic).to.include({ grade: 'normal', excellent: 0 });
      const events = await testEnv().sql<{ action: string }>('select action from replies order by id');
      expect(events.map((e) => e.action)).to.deep.equal(['excellent', 'unexcellent']);
    });

    it('refuses excellent and unexcellent to members with no message', async () => {
      await api().post(`/api/v3/topics/${id}/action?type=excellent`).set(alice.auth).expect(403, { error: 'AccessDenied' });
      await api().post(`/api/v3/topics/${id}/action?type=unexcellent`).set(alice.auth).expect(403, { error: 'AccessDenied' });
    });

    it('lets the owner close and open; other members get 403', async () => {
      await api().post(`/api/v3/topics/${id}/action?type=close`).set(bob.auth).expect(403, { error: 'AccessDenied' });
      await api().post(`/api/v3/topics/${id}/action?type=close`).set(alice.auth).expect(200, { ok: 1 });
      expect((await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic.closed_at).to.be.a('string');
      await api().post(`/api/v3/topics/${id}/action?type=open`).set(alice.auth).expect(200, { ok: 1 });
      expect((await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic.closed_at).to.equal(null);
    });

    it('bans through the action endpoint too', async () => {
      await api().post(`/api/v3/topics/${id}/action?type=ban`).set(admin.auth).expect(200, { ok: 1 });
      expect((await topicRow(id)).node_id).to.equal(await noPointId());
    });

    it('answers 400 for a missing or unknown type, 404 for an unknown topic, 401 without a token', async () => {
      expect((await api().post(`/api/v3/topics/${id}/action`).set(admin.auth).expect(400)).body.error).to.equal(
        'ParameterInvalid',
      );
      expect((await api().post(`/api/v3/topics/${id}/action?type=nuke`).set(admin.auth).expect(400)).body.message).to.include(
        'type',
      );
      await api().post('/api/v3/topics/9999/action?type=close').set(admin.auth).expect(404);
      await api().post(`/api/v3/topics/${id}/action?type=close`).expect(401);
    });
  });
});
