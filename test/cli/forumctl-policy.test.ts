import { expect } from 'chai';
import { makeNode, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/** Issue 31: forumctl `--as` a member may read and change what the member may over HTTP (contract §4, §5, §9), no more. */
describe('forumctl --as: the HTTP policy', () => {
  it("users list and show give a member no one's e-mail but their own; an administrator sees them all", async () => {
    await makeUser('alice');
    await makeUser('bob');
    await makeUser('carol', 'admin');
    const asBob = await forumctl(['users', 'list', '--as', 'bob', '--json']);
    expect(asBob.code).to.equal(0);
    const emails = Object.fromEntries(
      asBob.json<{ users: { login: string; email: string }[] }>().users.map((u) => [u.login, u.email]),
    );
    expect(emails).to.include({ alice: '', carol: '', bob: 'bob@example.com' });
    const table = await forumctl(['users', 'list', '--as', 'bob'], { stdoutTerminal: false });
    expect(table.stdout).not.to.include('alice@example.com').and.not.to.include('carol@example.com');
    expect(table.stdout).to.include('bob@example.com');
    expect((await forumctl(['users', 'show', 'alice', '--as', 'bob', '--json'])).json()).to.include({ email: '' });
    expect((await forumctl(['users', 'show', 'bob', '--as', 'bob', '--json'])).json()).to.include({ email: 'bob@example.com' });
    expect((await forumctl(['users', 'show', 'alice', '--as', 'carol', '--json'])).json()).to.include({
      email: 'alice@example.com',
    });
    expect((await forumctl(['users', 'show', 'alice', '--json'])).json()).to.include({ email: 'alice@example.com' });
  });

  it("a member may not change another user's blocks, create users, or issue someone else's token (exit 3)", async () => {
    await makeUser('alice');
    await makeUser('bob');
    const node = await makeNode('Ruby');
    const refused = [
      ['users', 'block-node', 'alice', String(node), '--as', 'bob'],
      ['users', 'unblock-node', 'alice', String(node), '--as', 'bob'],
      ['users', 'block-user', 'alice', 'bob', '--as', 'bob'],
      ['users', 'unblock-user', 'alice', 'bob', '--as', 'bob'],
      ['users', 'create', 'eve', '--email', 'eve@example.com', '--password', 'long-enough', '--admin', '--as', 'bob'],
      ['tokens', 'issue', 'alice', '--as', 'bob'],
    ];
    for (const args of refused) expect((await forumctl(args)).code, args.join(' ')).to.equal(3);
    expect(await testEnv().sql("select 1 from users where login = 'eve'")).to.have.length(0);
    expect(await testEnv().sql('select 1 from node_blocks')).to.have.length(0);
    // Their own: as over HTTP.
    expect((await forumctl(['users', 'block-node', 'bob', String(node), '--as', 'bob'])).code).to.equal(0);
    expect((await forumctl(['tokens', 'issue', 'bob', '--as', 'bob'])).code).to.equal(0);
  });

  it('administration (apps, maintenance, search, seed, db) refuses a member (exit 3) and serves an administrator', async () => {
    await makeUser('bob');
    await makeUser('carol', 'admin');
    for (const args of [
      ['apps', 'list'],
      ['maintenance', 'recount'],
      ['maintenance', 'purge-tokens'],
      ['maintenance', 'purge-notifications', '--older-than', '1'],
      ['maintenance', 'purge-events'],
      ['maintenance', 'purge-deliveries'],
      ['search', 'reindex'],
      ['seed', '--users', '1', '--nodes', '0', '--topics', '0', '--replies', '0', '--likes', '0', '--notifications', '0'],
      ['db', 'status'],
      ['db', 'migrate'],
    ]) {
      expect((await forumctl([...args, '--as', 'bob', '--yes'])).code, args.join(' ')).to.equal(3);
    }
    expect((await forumctl(['apps', 'list', '--as', 'carol'])).code).to.equal(0);
    expect((await forumctl(['db', 'status', '--as', 'carol'])).code).to.equal(0);
    expect((await forumctl(['maintenance', 'purge-tokens', '--as', 'carol'])).code).to.equal(0);
  });

  it('nodes list tells only an administrator which nodes are hidden', async () => {
    await makeUser('bob');
    await makeNode('Secret', { hidden: true });
    const asBob = await forumctl(['nodes', 'list', '--as', 'bob', '--json']);
    for (const node of asBob.json<{ nodes: Record<string, unknown>[] }>().nodes) expect(node).not.to.have.property('hidden');
    const asSystem = await forumctl(['nodes', 'list', '--json']);
    expect(asSystem.json<{ nodes: { name: string; hidden: boolean }[] }>().nodes).to.deep.include.members([]);
    expect(asSystem.json<{ nodes: { name: string; hidden: boolean }[] }>().nodes.find((n) => n.name === 'Secret')).to.include({
      hidden: true,
    });
  });
});
