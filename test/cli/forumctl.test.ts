import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

describe('forumctl db', () => {
  it('migrate has nothing left to apply, and status lists every migration as applied', async () => {
    const migrate = await forumctl(['db', 'migrate', '--json']);
    expect(migrate.code).to.equal(0);
    expect(migrate.json()).to.deep.equal({ applied: [] });
    const status = await forumctl(['db', 'status', '--json']);
    expect(status.json<{ pending: string[]; executed: string[] }>().pending).to.deep.equal([]);
    expect(status.json<{ executed: string[] }>().executed).to.have.length.above(0);
  });
});

describe('forumctl db migrate, as a process on a database of its own', () => {
  it('reports the migrations it applied to an empty database, and nothing the second time', async function () {
    this.timeout(60_000);
    const server = new URL(testEnv().config.databaseUrl!);
    const admin = new URL(server);
    admin.pathname = '/postgres';
    const name = `forumctl_migrate_test_${process.pid}`;
    const run = async (sql: string) => {
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    await run(`create database ${pg.escapeIdentifier(name)}`);
    try {
      const url = new URL(server);
      url.pathname = `/${name}`;
      const migrate = () =>
        JSON.parse(
          execFileSync(process.execPath, ['bin/forumctl.js', 'db', 'migrate', '--json'], {
            env: { ...process.env, DATABASE_URL: url.toString() },
            encoding: 'utf8',
          }),
        ) as { applied: string[] };
      const first = await migrate();
      expect(first.applied[0]).to.equal('Migration20261121000000_initial');
      expect(first.applied).to.include('Migration20261124080000_search_functions');
      expect(await migrate()).to.deep.equal({ applied: [] });
    } finally {
      await run(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
    }
  });
});

describe('forumctl users', () => {
  it('create reads the password from stdin and prints the UserDetail', async () => {
    const res = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--name', 'Alice', '--json'], {
      stdin: 'correct horse battery\n',
    });
    expect(res.code).to.equal(0);
    expect(res.json()).to.include({ login: 'alice', name: 'Alice', email: 'alice@example.com', level: 'member' });
    const [row] = await testEnv().sql<{ password_hash: string }>("select password_hash from users where login = 'alice'");
    expect(row!.password_hash).to.match(/^\$argon2id\$/);
  });

  it('create --admin with --password makes an administrator', async () => {
    const res = await forumctl([
      'users',
      'create',
      'root',
      '--email',
      'root@example.com',
      '--password',
      'long-enough',
      '--admin',
      '--json',
    ]);
    expect(res.json()).to.include({ level: 'admin', level_name: 'Admin' });
  });

  it('exits 2 for a taken login, a bad login, a short password or no password', async () => {
    await makeUser('alice');
    for (const args of [
      ['alice', '--email', 'other@example.com', '--password', 'long-enough'],
      ['ALICE', '--email', 'other@example.com', '--password', 'long-enough'],
      ['no spaces', '--email', 'x@example.com', '--password', 'long-enough'],
      ['bob', '--email', 'bob@example.com', '--password', 'short'],
      ['bob', '--email', 'not-an-email', '--password', 'long-enough'],
      ['bob', '--email', 'bob@example.com'],
    ]) {
      const res = await forumctl(['users', 'create', ...args, '--json']);
      expect(res.code, args.join(' ')).to.equal(2);
      expect(res.stdout, 'nothing on stdout on error').to.equal('');
      expect(res.stderr.split('\n')).to.have.length(1);
    }
  });

  it('exits 2 when a required option or argument is missing', async () => {
    expect((await forumctl(['users', 'create', 'bob'])).code).to.equal(2);
    expect((await forumctl(['users', 'role', 'bob'])).code).to.equal(2);
  });

  it('role changes a role; the API then refuses the blocked user a topic', async () => {
    const mallory = await makeUser('mallory');
    const node = await makeNode('General');
    const res = await forumctl(['users', 'role', 'mallory', 'blocked', '--json']);
    expect(res.code).to.equal(0);
    // A command that changes one record prints it.
    expect(res.json()).to.include({ id: mallory.id, login: 'mallory', level: 'blocked' });
    await api().post('/api/v3/topics').set(mallory.auth).send({ title: 't', body: 'b', node_id: node }).expect(403);
    expect((await forumctl(['users', 'role', 'mallory', 'emperor'])).code).to.equal(2);
    expect((await forumctl(['users', 'role', 'nobody', 'admin'])).code).to.equal(4);
  });

  it('role refuses a member acting through --as (exit 3)', async () => {
    await makeUser('alice');
    await makeUser('bob');
    expect((await forumctl(['users', 'role', 'bob', 'admin', '--as', 'alice'])).code).to.equal(3);
  });

  it('list and show print tables, or JSON', async () => {
    await makeUser('alice');
    const table = await forumctl(['users', 'list']);
    expect(table.stdout).to.include('alice').and.include('system');
    const show = await forumctl(['users', 'show', 'ALICE', '--json']);
    expect(show.json()).to.include({ login: 'alice', email: 'alice@example.com' });
    expect((await forumctl(['users', 'show', 'nobody'])).code).to.equal(4);
  });

  it("block-node and block-user shape the user's topic list, and unblock undoes it", async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const ruby = await makeNode('Ruby');
    const general = await makeNode('General');
    await makeTopic(bob, general);
    const mine = await makeTopic(alice, ruby);
    const listed = async () =>
      (await api().get('/api/v3/topics').set(alice.auth).expect(200)).body.topics.map((t: { id: number }) => t.id);
    expect(await listed()).to.have.length(2);
    expect((await forumctl(['users', 'block-node', 'alice', String(ruby)])).code).to.equal(0);
    expect((await forumctl(['users', 'block-user', 'alice', 'bob'])).code).to.equal(0);
    expect(await listed()).to.deep.equal([]);
    await forumctl(['users', 'unblock-node', 'alice', String(ruby)]);
    await forumctl(['users', 'unblock-user', 'alice', 'bob']);
    expect(await listed()).to.have.length(2);
    expect(await listed()).to.include(mine);
    expect((await forumctl(['users', 'block-node', 'alice', '9999'])).code).to.equal(4);
    expect((await forumctl(['users', 'block-node', 'alice', 'abc'])).code).to.equal(2);
    expect((await forumctl(['users', 'block-user', 'alice', 'ghost'])).code).to.equal(4);
  });
});

describe('forumctl nodes', () => {
  it('create prints the Node; list shows it; hide and unhide change what anonymous callers see', async () => {
    const created = await forumctl(['nodes', 'create', 'Ruby', '--summary', 'All Ruby', '--sort', '5', '--json']);
    expect(created.code).to.equal(0);
    const node = created.json<{ id: number; name: string }>();
    expect(node).to.include({ name: 'Ruby', summary: 'All Ruby', sort: 5, topics_count: 0 });
    const list = await forumctl(['nodes', 'list', '--json']);
    expect(list.json<{ nodes: { name: string }[] }>().nodes.map((n) => n.name)).to.include('Ruby');

    const alice = await makeUser('alice');
    await makeTopic(alice, node.id);
    expect((await forumctl(['nodes', 'hide', String(node.id)])).code).to.equal(0);
    expect((await api().get('/api/v3/topics').expect(200)).body.topics).to.have.length(0);
    expect((await forumctl(['nodes', 'unhide', String(node.id)])).code).to.equal(0);
    expect((await api().get('/api/v3/topics').expect(200)).body.topics).to.have.length(1);
  });

  it('exits 2 for a duplicate name or a bad sort, and 4 for an unknown node', async () => {
    await makeNode('Ruby');
    expect((await forumctl(['nodes', 'create', 'ruby'])).code).to.equal(2);
    expect((await forumctl(['nodes', 'create', 'Go', '--sort', 'high'])).code).to.equal(2);
    expect((await forumctl(['nodes', 'hide', '9999'])).code).to.equal(4);
  });
});

describe('forumctl topics', () => {
  it('ban moves the topic to NoPoint, locked, as the API then shows it', async () => {
    const alice = await makeUser('alice');
    const id = await makeTopic(alice, await makeNode('General'));
    const res = await forumctl(['topics', 'ban', String(id), '--json']);
    expect(res.code).to.equal(0);
    const topic = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic;
    expect(topic).to.include({ node_name: 'NoPoint', lock_node: true });
    expect(res.json()).to.include({ id, node_name: 'NoPoint', lock_node: true, deleted: false });
  });

  it('delete --as another member exits 3 and changes nothing; the system moderator may, and is recorded', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const id = await makeTopic(bob, await makeNode('General'));
    const denied = await forumctl(['topics', 'delete', String(id), '--as', 'alice']);
    expect(denied.code).to.equal(3);
    expect(denied.stderr).to.match(/^error: /);
    await api().get(`/api/v3/topics/${id}`).expect(200);
    expect((await forumctl(['topics', 'delete', String(id)])).code).to.equal(0);
    await api().get(`/api/v3/topics/${id}`).expect(404);
    const [row] = await testEnv().sql<{ login: string }>(
      'select u.login from topics t join users u on u.id = t.deleted_by_id where t.id = $1',
      [id],
    );
    expect(row!.login).to.equal('system');
    expect(alice.id).to.be.a('number');
  });

  it('delete exits 4 for an unknown topic and 4 for an unknown --as user', async () => {
    expect((await forumctl(['topics', 'delete', '9999'])).code).to.equal(4);
    expect((await forumctl(['topics', 'delete', '1', '--as', 'ghost'])).code).to.equal(4);
  });

  it('asks before destroying on a terminal, and not with --yes', async () => {
    const alice = await makeUser('alice');
    const id = await makeTopic(alice, await makeNode('General'));
    const declined = await forumctl(['topics', 'delete', String(id)], { terminal: true, answer: false });
    expect(declined.code).to.equal(1);
    expect(declined.stderr).to.include(`Delete topic ${id} "A topic" by alice (node General), with its 0 replies?`);
    await api().get(`/api/v3/topics/${id}`).expect(200);
    const yes = await forumctl(['topics', 'delete', String(id), '--yes'], { terminal: true, answer: false });
    expect(yes.code).to.equal(0);
    expect(yes.stderr).to.equal('');
  });

  it('move relocates and locks the node; members get exit 3', async () => {
    const alice = await makeUser('alice');
    const general = await makeNode('General');
    const ruby = await makeNode('Ruby');
    const id = await makeTopic(alice, general);
    expect((await forumctl(['topics', 'move', String(id), '--node', String(ruby), '--as', 'alice'])).code).to.equal(3);
    const res = await forumctl(['topics', 'move', String(id), '--node', String(ruby), '--json']);
    expect(res.json()).to.include({ id, node_id: ruby, lock_node: true });
    const topic = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic;
    expect(topic).to.include({ node_id: ruby, lock_node: true });
    expect((await forumctl(['topics', 'move', String(id), '--node', '9999'])).code).to.equal(4);
  });

  it('excellent, unexcellent, close and open act like the action endpoint', async () => {
    const alice = await makeUser('alice');
    const id = String(await makeTopic(alice, await makeNode('General')));
    expect((await forumctl(['topics', 'excellent', id])).code).to.equal(0);
    expect((await api().get(`/api/v3/topics/${id}`)).body.topic.excellent).to.equal(1);
    expect((await forumctl(['topics', 'unexcellent', id])).code).to.equal(0);
    expect((await forumctl(['topics', 'close', id, '--as', 'alice'])).code).to.equal(0);
    expect((await api().get(`/api/v3/topics/${id}`)).body.topic.closed_at).to.be.a('string');
    expect((await forumctl(['topics', 'open', id])).code).to.equal(0);
    expect((await forumctl(['topics', 'excellent', id, '--as', 'alice'])).code).to.equal(3);
  });
});

describe('forumctl replies', () => {
  it('delete soft-deletes as the system moderator; --as another member exits 3; unknown exits 4', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const replyId = await makeReply(bob, topicId);
    expect((await forumctl(['replies', 'delete', String(replyId), '--as', 'alice'])).code).to.equal(3);
    const res = await forumctl(['replies', 'delete', String(replyId), '--json']);
    expect(res.code).to.equal(0);
    expect(res.json()).to.include({ id: replyId, deleted: true, body: '' });
    await api().get(`/api/v3/replies/${replyId}`).expect(404);
    expect((await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic.replies_count).to.equal(0);
    expect((await forumctl(['replies', 'delete', String(replyId)])).code).to.equal(4);
  });
});

describe('forumctl tokens', () => {
  it('issue prints the OAuth token object; the token works on the API until revoked', async () => {
    await makeUser('alice');
    const issued = await forumctl(['tokens', 'issue', 'alice', '--expires-in', '3600', '--json']);
    expect(issued.code).to.equal(0);
    const token = issued.json<{ access_token: string }>();
    expect(token).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'all' });
    expect(token).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope', 'created_at');
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${token.access_token}`).expect(200);
    const revoked = await forumctl(['tokens', 'revoke', token.access_token, '--json']);
    expect(revoked.json()).to.deep.equal({ ok: 1, revoked: true });
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${token.access_token}`).expect(401);
  });

  it('issue exits 4 for an unknown user and 2 for a bad lifetime', async () => {
    await makeUser('alice');
    expect((await forumctl(['tokens', 'issue', 'ghost'])).code).to.equal(4);
    expect((await forumctl(['tokens', 'issue', 'alice', '--expires-in', '-5'])).code).to.equal(2);
  });
});

describe('forumctl help', () => {
  it('every command has help with an example', async () => {
    for (const command of [
      ['db', 'migrate'],
      ['db', 'status'],
      ['users', 'create'],
      ['users', 'list'],
      ['users', 'show'],
      ['users', 'role'],
      ['users', 'block-node'],
      ['users', 'unblock-user'],
      ['nodes', 'create'],
      ['nodes', 'hide'],
      ['topics', 'ban'],
      ['topics', 'move'],
      ['topics', 'close'],
      ['replies', 'delete'],
      ['tokens', 'issue'],
      ['tokens', 'revoke'],
      ['apps', 'create'],
      ['apps', 'list'],
      ['maintenance', 'recount'],
      ['maintenance', 'purge-notifications'],
      ['maintenance', 'purge-tokens'],
      ['users', 'unblock-node'],
      ['users', 'block-user'],
      ['nodes', 'list'],
      ['nodes', 'unhide'],
      ['topics', 'delete'],
      ['topics', 'excellent'],
      ['topics', 'unexcellent'],
      ['topics', 'open'],
    ]) {
      const res = await forumctl([...command, '--help']);
      expect(res.code, command.join(' ')).to.equal(0);
      expect(res.stdout, command.join(' '))
        .to.match(/Examples?:/)
        .and.include('$ forumctl');
    }
  });

  it('an unknown command exits 2', async () => {
    expect((await forumctl(['frobnicate'])).code).to.equal(2);
  });
});
