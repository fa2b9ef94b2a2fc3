import { expect } from 'chai';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { MIGRATIONS, migrationStatus } from '../../src/adapters/persistence/database/orm.js';

describe('migrations', () => {
  it('are all applied, and the first one created NoPoint (hidden) and the system moderator', async () => {
    const env = testEnv();
    const status = await migrationStatus(env.orm);
    expect(status.pending).to.deep.equal([]);
    expect(status.executed).to.deep.equal(MIGRATIONS.map((m) => m.name));
    const [noPoint] = await env.sql<{ hidden: boolean }>("select hidden from nodes where name = 'NoPoint'");
    expect(noPoint!.hidden).to.equal(true);
    const [system] = await env.sql<{ role: string }>("select role from users where login = 'system'");
    expect(system!.role).to.equal('admin');
  });
});

describe('topic follows and favorites', () => {
  it('leave one row when the same user follows and favorites twice in parallel', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const id = await makeTopic(alice, await makeNode('General'));
    await Promise.all([
      env.scope(() => env.useCases.followTopic.execute(alice, id, true)),
      env.scope(() => env.useCases.followTopic.execute(alice, id, true)),
      env.scope(() => env.useCases.favoriteTopic.execute(alice, id, true)),
      env.scope(() => env.useCases.favoriteTopic.execute(alice, id, true)),
    ]);
    const [counts] = await env.sql<{ follows: number; favorites: number; counter: number }>(
      `select (select count(*)::int from topic_follows) as follows, (select count(*)::int from topic_favorites) as favorites,
              (select favorites_count from users where id = $1) as counter`,
      [alice.id],
    );
    expect(counts).to.deep.equal({ follows: 1, favorites: 1, counter: 1 });
  });

  it('unfavorite twice moves the favorites counter once', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const id = await makeTopic(alice, await makeNode('General'));
    await env.scope(() => env.useCases.favoriteTopic.execute(alice, id, true));
    await env.scope(() => env.useCases.favoriteTopic.execute(alice, id, false));
    await env.scope(() => env.useCases.favoriteTopic.execute(alice, id, false));
    const [row] = await env.sql<{ favorites_count: number }>('select favorites_count from users where id = $1', [alice.id]);
    expect(row!.favorites_count).to.equal(0);
  });
});

describe('counters kept by the topic use cases', () => {
  it('count topics per node and per user through create, move and delete', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const admin = await makeUser('root', 'admin');
    const general = await makeNode('General');
    const ruby = await makeNode('Ruby');
    const id = await makeTopic(alice, general);
    await makeTopic(alice, general);
    await env.scope(() => env.useCases.moveTopic.execute(admin, id, ruby));
    const counts = async () =>
      env.sql<{ name: string; topics_count: number }>('select name, topics_count from nodes where id in ($1, $2) order by id', [
        general,
        ruby,
      ]);
    expect(await counts()).to.deep.equal([
      { name: 'General', topics_count: 1 },
      { name: 'Ruby', topics_count: 1 },
    ]);
    await env.scope(() => env.useCases.deleteTopic.execute(admin, id));
    expect((await counts())[1]!.topics_count).to.equal(0);
    const [user] = await env.sql<{ topics_count: number }>('select topics_count from users where id = $1', [alice.id]);
    expect(user!.topics_count).to.equal(1);
  });

  it('roll back the whole write when validation fails midway', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const general = await makeNode('General');
    const id = await makeTopic(alice, general, 'Before', 'body before');
    let failed = false;
    await env
      .scope(() => env.useCases.updateTopic.execute(alice, { id, title: 'After', body: 'body after', nodeId: 999_999 }))
      .catch(() => {
        failed = true;
      });
    expect(failed).to.equal(true);
    const [row] = await env.sql<{ title: string; node_id: number }>('select title, node_id from topics where id = $1', [id]);
    expect(row).to.deep.equal({ title: 'Before', node_id: general });
  });
});

describe('access tokens', () => {
  it('resolve to their user while live, and to nobody once expired or revoked', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    expect(await env.scope(() => env.useCases.authenticate.execute(alice.token))).to.deep.equal({
      user: { id: alice.id, login: 'alice', role: 'member' },
      scope: 'all',
    });
    const short = await env.scope(() => env.useCases.issueToken.execute({ userId: alice.id, clientId: null, expiresIn: 1 }));
    await env.sql(
      "update oauth_tokens set expires_at = now() - interval '1 second' where expires_at < now() + interval '2 seconds'",
    );
    expect(await env.scope(() => env.useCases.authenticate.execute(short.access_token))).to.equal(null);
    expect(await env.scope(() => env.useCases.revokeToken.execute(alice.token))).to.equal(true);
    expect(await env.scope(() => env.useCases.authenticate.execute(alice.token))).to.equal(null);
  });

  it('are stored only as digests', async () => {
    const alice = await makeUser('alice');
    const rows = await testEnv().sql<{ access_digest: string }>('select access_digest from oauth_tokens');
    expect(rows.map((r) => r.access_digest)).to.not.include(alice.token);
    expect(rows[0]!.access_digest).to.match(/^[0-9a-f]{64}$/);
  });
});
