import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/** Contract §23 from the terminal: groups, their members, and who may read and write in a node, each audited. */
describe('forumctl: groups and node access', () => {
  const audit = async () =>
    testEnv().sql<{ action: string; target_type: string; changes: Record<string, unknown> }>(
      `select action, target_type, changes from audit_entries where action like 'group.%' or action = 'node.access' order by id`,
    );

  it('creates, lists, shows, renames and deletes a group, and adds and removes members', async () => {
    await makeUser('alice');
    await makeUser('bob');
    const created = await forumctl(['groups', 'create', 'staff-room', '--title', 'Staff room', '--hidden', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    expect(created.json()).to.include({ name: 'staff-room', title: 'Staff room', hidden: true, members_count: 0 });
    expect((await forumctl(['groups', 'create', 'STAFF-ROOM'])).code, 'a name taken in another case').to.not.equal(0);

    const added = await forumctl(['groups', 'add', 'staff-room', 'alice', 'bob']);
    expect(added.stdout).to.equal('added to staff-room: alice, bob');
    expect((await forumctl(['groups', 'add', 'staff-room', 'alice'])).stdout).to.equal('nothing changed in staff-room');
    const unknown = await forumctl(['groups', 'add', 'staff-room', 'nobody']);
    expect(unknown.code).to.not.equal(0);
    expect(unknown.stderr).to.contain('nobody');

    const shown = await forumctl(['groups', 'show', 'Staff-Room', '--json']);
    expect(shown.json<{ members: { login: string }[]; members_count: number }>()).to.deep.include({ members_count: 2 });
    expect(shown.json<{ members: { login: string }[] }>().members.map((m) => m.login)).to.deep.equal(['alice', 'bob']);

    expect((await forumctl(['groups', 'remove', 'staff-room', 'bob'])).stdout).to.equal('removed from staff-room: bob');
    expect((await forumctl(['groups', 'rename', 'staff-room', 'staff'])).code).to.equal(0);
    const listed = await forumctl(['groups', 'list', '--json']);
    expect(listed.json<{ groups: { name: string; members_count: number }[] }>().groups).to.deep.equal([
      { id: created.json<{ id: number }>().id, name: 'staff', title: 'Staff room', hidden: true, members_count: 1 },
    ]);
    expect((await forumctl(['groups', 'delete', 'staff', '--yes'])).code).to.equal(0);
    expect((await forumctl(['groups', 'list', '--json'])).json<{ groups: unknown[] }>().groups).to.deep.equal([]);

    expect((await audit()).map((entry) => entry.action)).to.deep.equal([
      'group.create',
      'group.add',
      'group.add',
      'group.remove',
      'group.update',
      'group.delete',
    ]);
  });

  it('is for administrators: a member is refused, and learns nothing of groups', async () => {
    await makeUser('alice');
    await forumctl(['groups', 'create', 'team']);
    for (const args of [
      ['groups', 'create', 'mine'],
      ['groups', 'add', 'team', 'alice'],
      ['groups', 'list'],
    ]) {
      const refused = await forumctl([...args, '--as', 'alice']);
      expect(refused.code, args.join(' ')).to.not.equal(0);
    }
    expect((await forumctl(['groups', 'show', 'team', '--as', 'alice'])).code).to.not.equal(0);
  });

  it('sets a node’s access, shows it, and applies it at once to every reader; the audit log keeps each change', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const node = await makeNode('Team room');
    const topic = await makeTopic(alice, node, 'Our plans');
    await forumctl(['groups', 'create', 'team']);
    await forumctl(['groups', 'add', 'team', 'alice']);

    const before = await forumctl(['nodes', 'access', String(node)]);
    expect(before.stdout).to.equal(`node ${node}: read: everyone; topics: members; replies: members; moderators: none`);
    const set = await forumctl(['nodes', 'access', String(node), '--read', 'team', '--topics', 'team', '--json']);
    expect(set.json()).to.deep.equal({ node_id: node, read: 'team', topics: 'team', replies: 'members', moderators: '' });
    await api().get(`/api/v3/topics/${topic}`).set(alice.auth).expect(200);
    await api().get(`/api/v3/topics/${topic}`).set(bob.auth).expect(404);
    await api().get(`/api/v3/topics/${topic}`).expect(404);

    expect((await forumctl(['nodes', 'access', String(node), '--topics', 'everyone'])).code).to.not.equal(0);
    expect((await forumctl(['nodes', 'access', String(node), '--read', 'ghosts'])).code).to.not.equal(0);
    expect((await forumctl(['nodes', 'access', String(node), '--read', 'members', '--as', 'alice'])).code).to.not.equal(0);

    // Deleting the group narrows the node to staff: nobody else reads it.
    await forumctl(['groups', 'delete', 'team', '--yes']);
    expect((await forumctl(['nodes', 'access', String(node)])).stdout).to.contain('read: staff; topics: staff;');
    await api().get(`/api/v3/topics/${topic}`).set(alice.auth).expect(404);

    const entries = (await audit()).filter((entry) => entry.action === 'node.access');
    expect(entries).to.have.length(1);
    expect(entries[0]!.changes).to.deep.equal({ read: ['everyone', 'team'], topics: ['members', 'team'] });
  });

  it('lets a node’s moderator delete a reply there, and only there: the use case’s rule, not one of its own', async () => {
    const author = await makeUser('author');
    await makeUser('keeper');
    const [ruby, go] = [await makeNode('Ruby'), await makeNode('Go')];
    await forumctl(['groups', 'create', 'keepers']);
    await forumctl(['groups', 'add', 'keepers', 'keeper']);
    await forumctl(['nodes', 'access', String(ruby), '--moderators', 'keepers']);
    const inRuby = await makeReply(author, await makeTopic(author, ruby), 'off topic in Ruby');
    const inGo = await makeReply(author, await makeTopic(author, go), 'off topic in Go');

    const deleted = await forumctl(['replies', 'delete', String(inRuby), '--as', 'keeper', '--reason', 'off topic', '--yes']);
    expect(deleted.code, deleted.stderr).to.equal(0);
    expect(deleted.stdout).to.equal(`reply ${inRuby} deleted by keeper`);
    const entries = await testEnv().sql<{ action: string; login: string; reason: string }>(
      `select a.action, u.login, a.reason from audit_entries a join users u on u.id = a.actor_id
        where a.target_type = 'Reply' and a.target_id = $1`,
      [inRuby],
    );
    expect(entries).to.deep.equal([{ action: 'reply.delete', login: 'keeper', reason: 'off topic' }]);

    const refused = await forumctl(['replies', 'delete', String(inGo), '--as', 'keeper'], { terminal: true, answer: true });
    expect(refused.code).to.equal(3);
    expect(refused.stderr).to.equal(
      `error: Access denied: deleting reply ${inGo} is for administrators, its node's moderators or its author (author); keeper is a member`,
    );
    const [left] = await testEnv().sql<{ deleted: boolean }>(
      'select deleted_at is not null as deleted from replies where id = $1',
      [inGo],
    );
    expect(left!.deleted).to.equal(false);
  });

  it('creates a node with its access in one command', async () => {
    await forumctl(['groups', 'create', 'staff-room']);
    const created = await forumctl(['nodes', 'create', 'Staff room', '--read', 'staff-room', '--topics', 'staff-room', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const id = created.json<{ id: number }>().id;
    expect((await forumctl(['nodes', 'access', String(id)])).stdout).to.equal(
      `node ${id}: read: staff-room; topics: staff-room; replies: members; moderators: none`,
    );
    await api().get(`/api/v3/nodes/${id}`).expect(404);

    // A group that does not exist: no node either, and nothing in the audit log (one unit of work).
    const entries = (await audit()).length;
    const refused = await forumctl(['nodes', 'create', 'Ruby team', '--read', 'ruby-team', '--moderators', 'ruby-team']);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr).to.include('group ruby-team not found');
    expect(await testEnv().sql("select id from nodes where name = 'Ruby team'")).to.deep.equal([]);
    expect(
      await testEnv().sql("select id from audit_entries where action = 'node.create' and changes->'name'->>1 = 'Ruby team'"),
    ).to.deep.equal([]);
    expect((await audit()).length).to.equal(entries);
  });
});
