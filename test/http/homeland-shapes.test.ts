import { expect } from 'chai';
import { api, insertReply, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/**
 * Issue 31, item 4: the fields homeland's own tests read (contract §5) and the small features behind them (§16a):
 * sections, pinned topics, the public e-mail flag, grade `ban`; and a closed topic's replies left as they are (§6).
 */
describe('homeland shapes: sections, pins, public e-mail, abilities, grade ban', () => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    admin = await makeUser('root', 'admin');
    general = await makeNode('General');
  });

  describe('sections', () => {
    it('a node outside any section reports homeland’s default; one placed in a section reports it', async () => {
      const ruby = await makeNode('Ruby');
      const before = await api().get(`/api/v3/nodes/${ruby}`).expect(200);
      expect(before.body.node).to.include({ section_id: 1, section_name: 'Nodes' });

      // As in a new database: the first section made here.
      await testEnv().sql('alter sequence sections_id_seq restart');
      const created = await forumctl(['sections', 'create', 'Programming', '--sort', '5', '--json']);
      expect(created.code, created.stderr).to.equal(0);
      const section = created.json<{ id: number; name: string }>();
      expect(section.name).to.equal('Programming');
      // Never id 1, which a node in no section reports (contract §16a): an id names one section.
      expect(section.id).to.not.equal(1);
      const placed = await forumctl(['nodes', 'section', String(ruby), String(section.id)]);
      expect(placed.code, placed.stderr).to.equal(0);
      expect(placed.stdout).to.include('Programming');

      const shown = await api().get(`/api/v3/nodes/${ruby}`).expect(200);
      expect(shown.body.node).to.include({ section_id: section.id, section_name: 'Programming' });
      const list = await api().get('/api/v3/nodes').expect(200);
      const byName = Object.fromEntries(list.body.nodes.map((n: { name: string }) => [n.name, n]));
      expect(byName.Ruby).to.include({ section_id: section.id, section_name: 'Programming' });
      expect(byName.General).to.include({ section_id: 1, section_name: 'Nodes' });

      const inSection = await forumctl(['nodes', 'create', 'Rails', '--section', String(section.id), '--json']);
      expect(inSection.json()).to.include({ section_id: section.id, section_name: 'Programming' });
      const listed = await forumctl(['sections', 'list', '--json']);
      expect(listed.json<{ sections: unknown[] }>().sections).to.deep.equal([
        { id: section.id, name: 'Programming', sort: 5, nodes_count: 2 },
      ]);

      expect((await forumctl(['nodes', 'section', String(ruby), 'none'])).code).to.equal(0);
      const out = await api().get(`/api/v3/nodes/${ruby}`).expect(200);
      expect(out.body.node).to.include({ section_id: 1, section_name: 'Nodes' });
      const audited = await testEnv().sql<{ action: string }>(
        "select action from audit_entries where action in ('section.create', 'node.section') order by id",
      );
      expect(audited.map((row) => row.action)).to.deep.equal(['section.create', 'node.section', 'node.section']);
    });

    it('refuses an unknown section (exit 4, nothing written), a duplicate name, and a member (exit 3)', async () => {
      const ruby = await makeNode('Ruby');
      expect((await forumctl(['nodes', 'section', String(ruby), '999'])).code).to.equal(4);
      expect((await forumctl(['nodes', 'create', 'Rails', '--section', '999'])).code).to.equal(4);
      expect(await testEnv().sql("select 1 from nodes where name = 'Rails'")).to.have.length(0);
      const first = await forumctl(['sections', 'create', 'Programming']);
      expect(first.code, first.stderr).to.equal(0);
      const duplicate = await forumctl(['sections', 'create', 'programming']);
      expect(duplicate.code).not.to.equal(0);
      expect(duplicate.stderr).to.include('has already been taken');
      expect((await forumctl(['sections', 'create', 'Mine', '--as', 'alice'])).code).to.equal(3);
      expect(await testEnv().sql('select 1 from sections')).to.have.length(1);
    });
  });

  describe('pinned topics', () => {
    it('lead the default list as one order that pages through, each topic once, newest pin first; other lists are unchanged', async () => {
      const ids: number[] = [];
      for (let i = 1; i <= 5; i++) ids.push(await makeTopic(alice, general, `topic ${i}`));
      // Newest activity first: 5 4 3 2 1. Pin 2, then 1.
      await api().post(`/api/v3/topics/${ids[1]}/action?type=suggest`).set(admin.auth).expect(200);
      await api().post(`/api/v3/topics/${ids[0]}/action`).set(admin.auth).send({ type: 'suggest' }).expect(200);

      const titles = async (query: string, auth?: Record<string, string>) => {
        const request = api().get(`/api/v3/topics${query}`);
        const res = await (auth ? request.set(auth) : request).expect(200);
        return res.body.topics.map((t: { title: string }) => t.title);
      };
      expect(await titles('?limit=3')).to.deep.equal(['topic 1', 'topic 2', 'topic 5']);
      expect(await titles('?limit=3', bob.auth)).to.deep.equal(['topic 1', 'topic 2', 'topic 5']);
      expect(await titles('?limit=20')).to.deep.equal(['topic 1', 'topic 2', 'topic 5', 'topic 4', 'topic 3']);
      // One order across pages (contract §16a): a pinned topic never comes again further down (a client that pages
      // showed it twice: issue 44).
      expect(await titles('?limit=3&offset=3')).to.deep.equal(['topic 4', 'topic 3']);
      expect(await titles('?limit=2&offset=1')).to.deep.equal(['topic 2', 'topic 5']);
      const paged = [];
      for (let offset = 0; offset < 5; offset += 2) paged.push(...(await titles(`?limit=2&offset=${offset}`, bob.auth)));
      expect(paged).to.deep.equal(['topic 1', 'topic 2', 'topic 5', 'topic 4', 'topic 3']);
      expect(await titles('?type=recent&limit=3')).to.deep.equal(['topic 5', 'topic 4', 'topic 3']);
      expect(await titles(`?node_id=${general}&limit=3`)).to.deep.equal(['topic 5', 'topic 4', 'topic 3']);

      const shown = await api().get(`/api/v3/topics/${ids[0]}`).expect(200);
      expect(shown.body.topic.suggested_at).to.be.a('string');
      const unpinned = await api().get(`/api/v3/topics/${ids[4]}`).expect(200);
      expect(unpinned.body.topic.suggested_at).to.equal(null);

      await api().post(`/api/v3/topics/${ids[0]}/action?type=unsuggest`).set(admin.auth).expect(200);
      expect(await titles('?limit=3')).to.deep.equal(['topic 2', 'topic 5', 'topic 4']);
      const audited = await testEnv().sql<{ action: string; target_id: number }>(
        "select action, target_id::int from audit_entries where action like 'topic.%suggest' order by id",
      );
      expect(audited).to.deep.equal([
        { action: 'topic.suggest', target_id: ids[1] },
        { action: 'topic.suggest', target_id: ids[0] },
        { action: 'topic.unsuggest', target_id: ids[0] },
      ]);
      // Pins are not replies: no system event appears in the topic.
      expect(await testEnv().sql('select 1 from replies where action is not null')).to.have.length(0);
    });

    it('are an administrator’s act: the owner gets 403; forumctl topics pin and unpin do the same', async () => {
      const topicId = await makeTopic(alice, general);
      const refused = await api().post(`/api/v3/topics/${topicId}/action?type=suggest`).set(alice.auth).expect(403);
      expect(refused.body).to.deep.equal({ error: 'AccessDenied' });
      expect((await forumctl(['topics', 'pin', String(topicId), '--as', 'alice'])).code).to.equal(3);
      const pinned = await forumctl(['topics', 'pin', String(topicId), '--json']);
      expect(pinned.code, pinned.stderr).to.equal(0);
      expect(pinned.json<{ suggested_at: string | null }>().suggested_at).to.be.a('string');
      const unpinned = await forumctl(['topics', 'unpin', String(topicId), '--json']);
      expect(unpinned.json()).to.include({ suggested_at: null });
    });
  });

  describe('abilities', () => {
    it('an administrator has all eight on every topic and both on every reply, deleted and system ones included', async () => {
      const topicId = await makeTopic(alice, general);
      await makeReply(bob, topicId, 'a reply');
      const deleted = await insertReply(topicId, bob.id, { deleted: true });
      await api().post(`/api/v3/topics/${topicId}/action?type=close`).set(alice.auth).expect(200);
      const every = { update: true, destroy: true, ban: true, normal: true, excellent: true, unexcellent: true };
      const shown = await api().get(`/api/v3/topics/${topicId}`).set(admin.auth).expect(200);
      expect(shown.body.topic.abilities).to.deep.equal({ ...every, close: true, open: true });
      const replies = await api().get(`/api/v3/topics/${topicId}/replies`).set(admin.auth).expect(200);
      expect(replies.body.replies).to.have.length(3);
      for (const reply of replies.body.replies) expect(reply.abilities).to.deep.equal({ update: true, destroy: true });
      expect(replies.body.replies.map((r: { id: number }) => r.id)).to.include(deleted);

      const asOwner = await api().get(`/api/v3/topics/${topicId}`).set(alice.auth).expect(200);
      expect(asOwner.body.topic.abilities).to.include({ normal: false, ban: false, update: true });
      const asBob = await api().get(`/api/v3/topics/${topicId}/replies`).set(bob.auth).expect(200);
      const mine = asBob.body.replies.map((r: { deleted: boolean; action: string | null; abilities: object }) => [
        r.deleted,
        r.action,
        r.abilities,
      ]);
      expect(mine).to.deep.equal([
        [false, null, { update: true, destroy: true }],
        [true, null, { update: false, destroy: false }],
        [false, 'close', { update: false, destroy: false }],
      ]);
    });

    it('User carries abilities, true only for an administrator caller', async () => {
      const topicId = await makeTopic(alice, general);
      const anonymous = await api().get(`/api/v3/topics/${topicId}`).expect(200);
      expect(anonymous.body.topic.user.abilities).to.deep.equal({ update: false, destroy: false });
      const asAdmin = await api().get(`/api/v3/topics/${topicId}`).set(admin.auth).expect(200);
      expect(asAdmin.body.topic.user.abilities).to.deep.equal({ update: true, destroy: true });
      const profile = await api().get('/api/v3/users/alice').set(admin.auth).expect(200);
      expect(profile.body.user.abilities).to.deep.equal({ update: true, destroy: true });
      await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200);
      const followers = await api().get('/api/v3/users/alice/followers').set(admin.auth).expect(200);
      expect(followers.body.followers[0].abilities).to.deep.equal({ update: true, destroy: true });
      const asMember = await api().get('/api/v3/users/alice/followers').set(bob.auth).expect(200);
      expect(asMember.body.followers[0].abilities).to.deep.equal({ update: false, destroy: false });
    });
  });

  it('UserDetail shows the e-mail to everyone when its owner made it public', async () => {
    const hidden = await api().get('/api/v3/users/alice').set(bob.auth).expect(200);
    expect(hidden.body.user.email).to.equal('');
    await testEnv().sql('update users set email_public = true where id = $1', [alice.id]);
    const anonymous = await api().get('/api/v3/users/alice').expect(200);
    expect(anonymous.body.user.email).to.equal('alice@example.com');
    const own = await api().get('/api/v3/users/bob').set(bob.auth).expect(200);
    expect(own.body.user.email).to.equal('bob@example.com');
  });

  it('a ban grades the topic `ban`; it stays out of the default list and keeps the grade in its node’s list', async () => {
    const topicId = await makeTopic(alice, general);
    await api().post(`/api/v3/topics/${topicId}/action?type=excellent`).set(admin.auth).expect(200);
    await api().post(`/api/v3/topics/${topicId}/ban`).set(admin.auth).expect(200);
    const shown = await api().get(`/api/v3/topics/${topicId}`).expect(200);
    expect(shown.body.topic).to.include({ grade: 'ban', excellent: 0, lock_node: true });
    const list = await api().get('/api/v3/topics').set(bob.auth).expect(200);
    expect(list.body.topics).to.have.length(0);
    const [noPoint] = await testEnv().sql<{ id: number }>("select id from nodes where name = 'NoPoint'");
    const inNode = await api().get(`/api/v3/topics?node_id=${noPoint!.id}`).set(admin.auth).expect(200);
    expect(inNode.body.topics.map((t: { grade: string }) => t.grade)).to.deep.equal(['ban']);
    // `normal` grades it back, as homeland's action does; it stays where the ban put it.
    await api().post(`/api/v3/topics/${topicId}/action?type=normal`).set(admin.auth).expect(200);
    const normal = await api().get(`/api/v3/topics/${topicId}`).expect(200);
    expect(normal.body.topic).to.include({ grade: 'normal', node_id: noPoint!.id });
  });

  it('a reply on a closed topic cannot be changed: 400 RecordInvalid in homeland’s words, the body kept', async () => {
    const topicId = await makeTopic(alice, general);
    const replyId = await makeReply(bob, topicId, 'before closing');
    await api().post(`/api/v3/topics/${topicId}/action?type=close`).set(alice.auth).expect(200);
    const refused = await api().put(`/api/v3/replies/${replyId}`).set(bob.auth).send({ body: 'after' }).expect(400);
    expect(refused.body).to.deep.equal({
      error: 'RecordInvalid',
      message: 'Topic has been closed, no longer accepting create or update replies.',
    });
    // Permission and parameters come first (contract §2): another member still gets 403, a blank body 400 ParameterInvalid.
    await api().put(`/api/v3/replies/${replyId}`).set(alice.auth).send({ body: 'x' }).expect(403);
    const blank = await api().put(`/api/v3/replies/${replyId}`).set(bob.auth).send({}).expect(400);
    expect(blank.body.error).to.equal('ParameterInvalid');
    const [row] = await testEnv().sql<{ body: string }>('select body from replies where id = $1', [replyId]);
    expect(row!.body).to.equal('before closing');
    await api().post(`/api/v3/topics/${topicId}/action?type=open`).set(alice.auth).expect(200);
    await api().put(`/api/v3/replies/${replyId}`).set(bob.auth).send({ body: 'after' }).expect(200);
  });
});
