import { expect } from 'chai';
import { makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/** Issue 31: no silent wrong results. */
describe('forumctl: lists say when they are cut, and doing nothing is not success', () => {
  it('users list lists every user by default (more than 100), one row each', async () => {
    await testEnv().sql(
      'insert into users (login, email, password_hash, role) ' +
        "select 'u' || i, 'u' || i || '@example.com', 'x', 'member' from generate_series(1, 120) i",
    );
    const res = await forumctl(['users', 'list'], { stdoutTerminal: false });
    expect(res.code).to.equal(0);
    const logins = res.stdout.split('\n').map((line) => line.split('\t')[1]);
    expect(logins).to.include('u120').and.include('system');
    expect(logins).to.have.length(121);
    expect(res.stderr).to.equal('');
    expect((await forumctl(['users', 'list', '--json'])).json<{ users: unknown[] }>().users).to.have.length(121);
  });

  it('users list --limit says on stderr, never on stdout, that more follow, and how to get them', async () => {
    await makeUser('alice');
    await makeUser('bob');
    const page = await forumctl(['users', 'list', '--limit', '2'], { stdoutTerminal: false });
    expect(page.code).to.equal(0);
    expect(page.stdout.split('\n')).to.have.length(2);
    expect(page.stderr).to.include('--offset 2 --limit 2');
    const last = await forumctl(['users', 'list', '--offset', '2', '--limit', '2'], { stdoutTerminal: false });
    expect(last.stdout.split('\n')).to.have.length(1);
    expect(last.stderr).to.equal('');
    const json = await forumctl(['users', 'list', '--limit', '2', '--json']);
    expect(Object.keys(json.json())).to.deep.equal(['users']);
  });

  it('audit list says on stderr when older entries were left out', async () => {
    await forumctl(['nodes', 'create', 'A']);
    await forumctl(['nodes', 'create', 'B']);
    const cut = await forumctl(['audit', 'list', '--limit', '1'], { stdoutTerminal: false });
    expect(cut.stdout.split('\n')).to.have.length(1);
    expect(cut.stderr).to.include('--offset 1 --limit 1');
    const whole = await forumctl(['audit', 'list', '--limit', '2'], { stdoutTerminal: false });
    expect(whole.stderr).to.equal('');
  });

  it('webhooks deliveries says on stderr when older deliveries were left out', async () => {
    const [hook] = await testEnv().sql<{ id: number }>(
      "insert into webhooks (url, events, secret) values ('https://hooks.example/x', '{*}', 'long-secret') returning id",
    );
    await testEnv().sql(
      'insert into webhook_deliveries (id, webhook_id, event_id, event, payload) ' +
        "select gen_random_uuid(), $1, i, 'topic.created', '{}' from generate_series(1, 3) i",
      [hook!.id],
    );
    const cut = await forumctl(['webhooks', 'deliveries', String(hook!.id), '--limit', '2'], { stdoutTerminal: false });
    expect(cut.code).to.equal(0);
    expect(cut.stdout.split('\n')).to.have.length(2);
    expect(cut.stderr).to.include('--limit');
    const whole = await forumctl(['webhooks', 'deliveries', String(hook!.id), '--limit', '3'], { stdoutTerminal: false });
    expect(whole.stdout.split('\n')).to.have.length(3);
    expect(whole.stderr).to.equal('');
  });

  it('tokens revoke of what names no live token (an id from tokens list) exits 4 and says why', async () => {
    await makeUser('alice');
    await forumctl(['tokens', 'issue', 'alice']);
    const list = await forumctl(['tokens', 'list', 'alice', '--json']);
    const before = list.json<{ tokens: { id: number }[] }>().tokens;
    const { id } = before[0]!;
    const res = await forumctl(['tokens', 'revoke', String(id), '--yes']);
    expect(res.code).to.equal(4);
    expect(res.stderr).to.include('no live token matched');
    expect((await forumctl(['tokens', 'list', 'alice', '--json'])).json<{ tokens: unknown[] }>().tokens).to.have.length(
      before.length,
    );
    const json = await forumctl(['tokens', 'revoke', 'nonsense', '--json']);
    expect(json.code).to.equal(4);
    expect(JSON.parse(json.stderr)).to.include({ error: 'ResourceNotFound' });
  });

  it('deleting what does not exist exits 4 (webhooks, topics, replies, deliveries, nodes)', async () => {
    for (const args of [
      ['webhooks', 'delete', '999999'],
      ['webhooks', 'deliveries', '999999'],
      ['webhooks', 'redeliver', '0b6f3c2e-5d1a-4a8e-9f1e-2c4d5e6f7a8b'],
      ['topics', 'delete', '999999'],
      ['replies', 'delete', '999999'],
      ['nodes', 'hide', '999999'],
      ['users', 'block-node', 'system', '999999'],
      ['users', 'block-user', 'system', 'ghost'],
      ['tokens', 'list', 'ghost'],
      ['tokens', 'revoke-all', 'ghost'],
    ]) {
      expect((await forumctl([...args, '--yes'])).code, args.join(' ')).to.equal(4);
    }
  });

  it('deleting a topic, reply or webhook a second time exits 4: the first did it, the second does nothing', async () => {
    const alice = await makeUser('alice');
    const topic = await makeTopic(alice, await makeNode('General'));
    const reply = await makeReply(alice, topic);
    const hook = (await forumctl(['webhooks', 'create', 'https://hooks.example/x', '--events', '*', '--json'])).json<{
      id: number;
    }>().id;
    for (const args of [
      ['replies', 'delete', String(reply)],
      ['topics', 'delete', String(topic)],
      ['webhooks', 'delete', String(hook)],
    ]) {
      expect((await forumctl([...args, '--yes'])).code, args.join(' ')).to.equal(0);
      expect((await forumctl([...args, '--yes'])).code, `${args.join(' ')} again`).to.equal(4);
    }
  });
});
