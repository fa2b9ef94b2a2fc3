import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

interface Entry {
  id: number;
  action: string;
  actor: { id: number; login: string };
  target_type: string;
  target_id: number;
  changes: Record<string, [unknown, unknown]>;
  reason: string | null;
  created_at: string;
}

async function entries(admin: TestUser, query: Record<string, string | number> = {}): Promise<Entry[]> {
  const res = await api().get('/api/v3/admin/audit').query(query).set(admin.auth).expect(200);
  return res.body.entries as Entry[];
}

async function noPointId(): Promise<number> {
  const [row] = await testEnv().sql<{ id: number }>("select id from nodes where name = 'NoPoint'");
  return row!.id;
}

describe('the moderation audit log (contract §14)', () => {
  let admin: TestUser;
  let alice: TestUser;
  let node: number;

  beforeEach(async () => {
    admin = await makeUser('root', 'admin');
    alice = await makeUser('alice');
    node = await makeNode('Ruby');
    // Making the node was an administration act too: start each test from an empty log.
    await testEnv().sql('truncate audit_entries');
  });

  describe('what is recorded over HTTP', () => {
    it('a ban, with what it changed and the reason given', async () => {
      const topic = await makeTopic(alice, node);
      await api().post(`/api/v3/topics/${topic}/ban`).set(admin.auth).send({ reason: 'spam, again' }).expect(200);
      const [entry] = await entries(admin);
      expect(entry).to.deep.include({
        action: 'topic.ban',
        target_type: 'Topic',
        target_id: topic,
        reason: 'spam, again',
        changes: { node_id: [node, await noPointId()], lock_node: [false, true], grade: ['normal', 'ban'] },
      });
      expect(entry!.actor).to.include({ id: admin.id, login: 'root' });
      expect(Date.parse(entry!.created_at)).to.be.closeTo(Date.now(), 10_000);
    });

    it("deleting someone else's topic or reply, not one's own", async () => {
      const own = await makeTopic(alice, node, 'Mine');
      await api().delete(`/api/v3/topics/${own}`).set(alice.auth).expect(200);
      expect(await entries(admin)).to.deep.equal([]);

      const topic = await makeTopic(alice, node, 'Theirs');
      const reply = await makeReply(alice, topic);
      await api().delete(`/api/v3/replies/${reply}?reason=off+topic`).set(admin.auth).expect(200);
      await api().delete(`/api/v3/topics/${topic}`).query({ reason: 'duplicate' }).set(admin.auth).expect(200);
      const [topicEntry, replyEntry] = await entries(admin);
      expect(topicEntry).to.deep.include({ action: 'topic.delete', target_id: topic, reason: 'duplicate' });
      expect(topicEntry!.changes.deleted_at![0]).to.equal(null);
      expect(replyEntry).to.deep.include({ action: 'reply.delete', target_type: 'Reply', target_id: reply, reason: 'off topic' });
    });

    it('excellent, close and open by a non-owner; the owner closing their own topic is not moderation', async () => {
      const topic = await makeTopic(alice, node);
      await api().post(`/api/v3/topics/${topic}/action?type=close`).set(alice.auth).expect(200);
      await api().post(`/api/v3/topics/${topic}/action?type=open`).set(alice.auth).expect(200);
      expect(await entries(admin)).to.deep.equal([]);

      await api().post(`/api/v3/topics/${topic}/action?type=excellent&reason=great+answer`).set(admin.auth).expect(200);
      await api().post(`/api/v3/topics/${topic}/action?type=close`).set(admin.auth).expect(200);
      // Repeating an action changes nothing, and records nothing.
      await api().post(`/api/v3/topics/${topic}/action?type=close`).set(admin.auth).expect(200);
      const [close, excellent] = await entries(admin);
      expect(excellent).to.deep.include({
        action: 'topic.excellent',
        reason: 'great answer',
        changes: { grade: ['normal', 'excellent'] },
      });
      expect(close).to.deep.include({ action: 'topic.close', reason: null });
      expect(close!.changes.closed_at![0]).to.equal(null);
      expect(await entries(admin)).to.have.length(2);
    });

    it('an administrator moving a member’s topic through an update', async () => {
      const topic = await makeTopic(alice, node);
      const other = await makeNode('Go');
      await api()
        .put(`/api/v3/topics/${topic}`)
        .set(admin.auth)
        .send({ title: 'A topic', body: 'Some **body**', node_id: other, reason: 'wrong node' })
        .expect(200);
      const [entry] = await entries(admin);
      expect(entry).to.deep.include({
        action: 'topic.move',
        target_id: topic,
        reason: 'wrong node',
        changes: { node_id: [node, other] },
      });
    });

    it('answers 400 for a reason longer than 500 characters, and the act is not done', async () => {
      const topic = await makeTopic(alice, node);
      const res = await api()
        .post(`/api/v3/topics/${topic}/ban`)
        .set(admin.auth)
        .send({ reason: 'x'.repeat(501) })
        .expect(400);
      expect(res.body.error).to.equal('ParameterInvalid');
      const [row] = await testEnv().sql<{ node_id: number }>('select node_id from topics where id = $1', [topic]);
      expect(row!.node_id).to.equal(node);
    });
  });

  describe('what is recorded from forumctl (the built-in system user without --as)', () => {
    it('role changes, nodes, tokens, apps and bulk moves, each with its --reason', async () => {
      const run = async (...args: string[]) => {
        const result = await forumctl(args);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).to.equal(0);
        return result;
      };
      await run('users', 'role', 'alice', 'blocked', '--reason', 'spam');
      const created = await run('nodes', 'create', 'Elixir', '--reason', 'asked for', '--json');
      const elixir = created.json<{ id: number }>().id;
      await run('nodes', 'hide', String(elixir));
      await run('nodes', 'unhide', String(elixir));
      await run('tokens', 'revoke', alice.token, '--reason', 'leaked', '--yes');
      await run('tokens', 'revoke-all', 'alice', '--yes');
      await run('apps', 'create', 'Mobile', '--reason', 'the iOS app');
      await makeTopic(admin, node, 'one');
      await makeTopic(admin, node, 'two');
      await run('topics', 'move', '--from-node', String(node), '--to-node', String(elixir), '--reason', 'merge', '--yes');

      const log = await entries(admin, { limit: 50 });
      expect(log.every((entry) => entry.actor.login === 'system')).to.equal(true);
      expect(log.map((entry) => [entry.action, entry.target_type, entry.reason]).reverse()).to.deep.equal([
        ['user.role', 'User', 'spam'],
        ['node.create', 'Node', 'asked for'],
        ['node.hide', 'Node', null],
        ['node.unhide', 'Node', null],
        ['token.revoke', 'Token', 'leaked'],
        ['token.revoke', 'User', null],
        ['app.create', 'App', 'the iOS app'],
        ['topic.move', 'Topic', 'merge'],
        ['topic.move', 'Topic', 'merge'],
      ]);
      const byAction = (action: string) => log.find((entry) => entry.action === action)!;
      expect(byAction('user.role')).to.deep.include({ target_id: alice.id, changes: { role: ['member', 'blocked'] } });
      expect(byAction('node.hide').changes).to.deep.equal({ hidden: [false, true] });
      expect(byAction('app.create').changes.name).to.deep.equal([null, 'Mobile']);
      expect(JSON.stringify(log)).not.to.contain(alice.token);
    });

    it('forumctl audit list: the same entries and filters, as a table or JSON; administrators only', async () => {
      await forumctl(['users', 'role', 'alice', 'blocked', '--reason', 'spam']);
      await forumctl(['nodes', 'create', 'Elixir']);
      const listed = await forumctl(['audit', 'list', '--action', 'user.role', '--json']);
      expect(listed.code, listed.stderr).to.equal(0);
      const { entries: shown } = listed.json<{ entries: Entry[] }>();
      expect(shown).to.deep.equal(await entries(admin, { action: 'user.role' }));
      expect(shown).to.have.length(1);
      const text = await forumctl(['audit', 'list']);
      expect(text.stdout).to.contain('user.role').and.contain('node.create').and.contain('role: "member" → "blocked"');
      expect((await forumctl(['audit', 'list', '--as', 'alice'])).code).to.equal(3);
      expect((await forumctl(['audit', 'list', '--action', 'topic.like'])).code).to.equal(2);
    });
  });

  describe('GET /api/v3/admin/audit', () => {
    beforeEach(async () => {
      const bob = await makeUser('bob');
      const one = await makeTopic(alice, node, 'one');
      const two = await makeTopic(bob, node, 'two');
      await api().post(`/api/v3/topics/${one}/ban`).set(admin.auth).expect(200);
      await api().post(`/api/v3/topics/${two}/action?type=excellent`).set(admin.auth).expect(200);
      await forumctl(['users', 'role', 'bob', 'blocked']);
    });

    it('is for administrators: 401 without a token, 403 for a member', async () => {
      await api().get('/api/v3/admin/audit').expect(401);
      const res = await api().get('/api/v3/admin/audit').set(alice.auth).expect(403);
      expect(res.body.error).to.equal('AccessDenied');
    });

    it('lists newest first, pages, and filters by action, actor, target type and id', async () => {
      const all = await entries(admin);
      expect(all.map((entry) => entry.action)).to.deep.equal(['user.role', 'topic.excellent', 'topic.ban']);
      expect(all.map((entry) => entry.id)).to.deep.equal([...all.map((entry) => entry.id)].sort((a, b) => b - a));
      expect((await entries(admin, { offset: 1, limit: 1 })).map((e) => e.action)).to.deep.equal(['topic.excellent']);
      expect((await entries(admin, { action: 'topic.ban' })).map((e) => e.action)).to.deep.equal(['topic.ban']);
      expect((await entries(admin, { actor: 'system' })).map((e) => e.action)).to.deep.equal(['user.role']);
      expect((await entries(admin, { actor: 'ROOT' })).map((e) => e.action)).to.deep.equal(['topic.excellent', 'topic.ban']);
      expect((await entries(admin, { target_type: 'user' })).map((e) => e.action)).to.deep.equal(['user.role']);
      const ban = all[2]!;
      expect(await entries(admin, { target_type: 'Topic', target_id: ban.target_id })).to.deep.equal([ban]);
      expect(await entries(admin, { actor: 'nobody' })).to.deep.equal([]);
    });

    it('answers 400 for a filter it does not know how to read', async () => {
      for (const query of [{ action: 'topic.like' }, { target_type: 'Photo' }, { target_id: 'x' }, { limit: 0 }]) {
        const res = await api().get('/api/v3/admin/audit').query(query).set(admin.auth).expect(400);
        expect(res.body.error).to.equal('ParameterInvalid');
      }
    });
  });

  describe('integrity', () => {
    it('is append-only: the database refuses to update or delete an entry', async () => {
      await forumctl(['nodes', 'create', 'Elixir']);
      for (const statement of ["update audit_entries set reason = 'rewritten'", 'delete from audit_entries']) {
        const error = await testEnv()
          .sql(statement)
          .then(
            () => null,
            (e: Error) => e,
          );
        expect(error?.message, statement).to.contain('append-only');
      }
      expect(await entries(admin)).to.have.length(1);
    });

    it('no act without its record: when the record cannot be written, the act is undone', async () => {
      const topic = await makeTopic(alice, node);
      await testEnv().sql("alter table audit_entries add constraint refuse_test check (reason is distinct from 'refuse')");
      try {
        const env = testEnv();
        const failure = await env
          .scope(() => env.useCases.topicAction.execute(admin, topic, 'ban', 'refuse'))
          .then(
            () => null,
            (e: Error) => e,
          );
        expect(failure?.message).to.contain('refuse_test');
      } finally {
        await testEnv().sql('alter table audit_entries drop constraint refuse_test');
      }
      const [row] = await testEnv().sql<{ node_id: number; lock_node: boolean }>(
        'select node_id, lock_node from topics where id = $1',
        [topic],
      );
      expect(row).to.deep.equal({ node_id: node, lock_node: false });
      expect(await entries(admin)).to.deep.equal([]);
    });
  });
});
