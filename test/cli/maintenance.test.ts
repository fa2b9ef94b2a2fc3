import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { SEED_SENTENCES, SEED_TITLES } from '../../src/application/maintenance/seed-text.js';

describe('forumctl maintenance recount', () => {
  it('reports nothing to fix after normal use', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const replyId = await makeReply(bob, topicId);
    await api().post('/api/v3/likes').set(alice.auth).send({ obj_type: 'reply', obj_id: replyId }).expect(200);
    await api().post('/api/v3/likes').set(bob.auth).send({ obj_type: 'topic', obj_id: topicId }).expect(200);
    await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200);
    await api().post(`/api/v3/topics/${topicId}/favorite`).set(bob.auth).expect(200);
    await makeReply(alice, topicId);
    await api().delete(`/api/v3/replies/${replyId}`).set(bob.auth).expect(200);
    const res = await forumctl(['maintenance', 'recount', '--json']);
    expect(res.code, res.stderr).to.equal(0);
    expect(res.json()).to.deep.equal({ corrected: { topics: 0, replies: 0, nodes: 0, users: 0, activity: 0, unread: 0 } });
  });

  it('fixes counters corrupted in the database, and a second run finds nothing', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const node = await makeNode('General');
    const topicId = await makeTopic(alice, node);
    const replyId = await makeReply(bob, topicId, 'the last reply');
    await api().post('/api/v3/likes').set(alice.auth).send({ obj_type: 'reply', obj_id: replyId }).expect(200);
    await api().post('/api/v3/users/alice/follow').set(bob.auth).expect(200);
    const [before] = await env.sql(
      'select replies_count, last_reply_id, last_reply_user_login, replied_at from topics where id = $1',
      [topicId],
    );

    await env.sql(
      "update topics set replies_count = 42, likes_count = 7, last_reply_id = null, last_reply_user_id = null, last_reply_user_login = 'x', replied_at = null",
    );
    await env.sql('update replies set likes_count = 9');
    await env.sql('update nodes set topics_count = 100');
    await env.sql(
      'update users set topics_count = 5, replies_count = 5, followers_count = 5, following_count = 5, favorites_count = 5',
    );
    // Replies per month: bob's one reply counted as 99, and a month for alice, who never replied.
    await env.sql('update user_reply_months set replies = 99');
    await env.sql("insert into user_reply_months (user_id, month, replies) values ($1, '2025-01-01', 3)", [alice.id]);
    // Unread counts: alice's (one TopicReply, one Follow) lost, bob's (none) made 4.
    await env.sql('delete from notification_unread_counts where user_id = $1', [alice.id]);
    await env.sql(
      'insert into notification_unread_counts (user_id, count) values ($1, 4) on conflict (user_id) do update set count = 4',
      [bob.id],
    );

    const fixed = await forumctl(['maintenance', 'recount', '--batch-size', '2', '--json']);
    expect(fixed.code, fixed.stderr).to.equal(0);
    const userCount = (await env.sql('select id from users')).length;
    const nodeCount = (await env.sql('select id from nodes')).length;
    expect(fixed.json()).to.deep.equal({
      corrected: { topics: 1, replies: 1, nodes: nodeCount, users: userCount, activity: 2, unread: 2 },
    });
    await api().get('/api/v3/notifications/unread_count').set(alice.auth).expect(200, { count: 2 });
    await api().get('/api/v3/notifications/unread_count').set(bob.auth).expect(200, { count: 0 });
    const months = await env.sql('select user_id, replies from user_reply_months where replies > 0');
    expect(months).to.deep.equal([{ user_id: bob.id, replies: 1 }]);

    const [after] = await env.sql(
      'select replies_count, last_reply_id, last_reply_user_login, replied_at from topics where id = $1',
      [topicId],
    );
    expect(after).to.deep.equal(before);
    const topic = (await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic;
    expect(topic).to.include({ replies_count: 1, likes_count: 0, last_reply_user_login: 'bob' });
    const [reply] = await env.sql<{ likes_count: number }>('select likes_count from replies where id = $1', [replyId]);
    expect(reply!.likes_count).to.equal(1);
    const [general] = await env.sql<{ topics_count: number }>('select topics_count from nodes where id = $1', [node]);
    expect(general!.topics_count).to.equal(1);
    const users = await env.sql(
      "select login, topics_count, replies_count, followers_count, following_count from users where login in ('alice', 'bob') order by login",
    );
    expect(users).to.deep.equal([
      { login: 'alice', topics_count: 1, replies_count: 0, followers_count: 1, following_count: 0 },
      { login: 'bob', topics_count: 0, replies_count: 1, followers_count: 0, following_count: 1 },
    ]);

    const again = await forumctl(['maintenance', 'recount', '--json']);
    expect(again.json()).to.deep.equal({ corrected: { topics: 0, replies: 0, nodes: 0, users: 0, activity: 0, unread: 0 } });
  });

  it('prints a table by default and refuses a bad batch size', async () => {
    const res = await forumctl(['maintenance', 'recount']);
    expect(res.stdout).to.include('corrected').and.include('topics');
    expect((await forumctl(['maintenance', 'recount', '--batch-size', '0'])).code).to.equal(2);
  });
});

describe('forumctl maintenance purge-notifications', () => {
  it('deletes notifications older than the given days and keeps the rest', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topicId = await makeTopic(alice, await makeNode('General'));
    await makeReply(bob, topicId);
    await makeReply(bob, topicId);
    await env.sql(
      "update notifications set created_at = now() - interval '100 days' where id = (select min(id) from notifications)",
    );
    const res = await forumctl(['maintenance', 'purge-notifications', '--older-than', '90', '--json']);
    expect(res.json()).to.deep.equal({ purged: 1 });
    expect((await env.sql('select id from notifications')).length).to.equal(1);
    expect((await forumctl(['maintenance', 'purge-notifications', '--older-than', 'soon'])).code).to.equal(2);
    expect((await forumctl(['maintenance', 'purge-notifications'])).code).to.equal(2);
  });

  it('asks first on a terminal, naming the cutoff', async () => {
    const declined = await forumctl(['maintenance', 'purge-notifications', '--older-than', '1'], {
      terminal: true,
      answer: false,
    });
    expect(declined.code).to.equal(1);
    expect(declined.stderr).to.match(/older than 1 days \(from before \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\? \[y\/N\] /);
  });
});

describe('forumctl maintenance purge-events', () => {
  it('deletes events older than the given days (a week by default) and keeps the rest', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    await makeTopic(alice, await makeNode('General'), 'Logged', 'an event for the log');
    const [{ n: before }] = await env.sql<{ n: number }>('select count(*)::int as n from events');
    expect(before).to.be.greaterThan(0);
    await env.sql("update events set created_at = now() - interval '8 days' where id = (select max(id) from events)");
    expect((await forumctl(['maintenance', 'purge-events', '--json'])).json()).to.deep.equal({ purged: 1 });
    expect((await forumctl(['maintenance', 'purge-events', '--older-than', '0', '--json'])).json()).to.deep.equal({
      purged: before - 1,
    });
    expect(await env.sql('select id from events')).to.deep.equal([]);
    expect((await forumctl(['maintenance', 'purge-events', '--older-than', '-1'])).code).to.equal(2);
  });
});

describe('forumctl topics move, in bulk', () => {
  it('moves every topic of a node in batches, locks them, notifies owners, and keeps the counters', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const from = await makeNode('Old');
    const to = await makeNode('New');
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await makeTopic(i % 2 ? bob : alice, from, `t${i}`));
    await api().delete(`/api/v3/topics/${ids[4]}`).set(alice.auth).expect(200);

    const res = await forumctl([
      'topics',
      'move',
      '--from-node',
      String(from),
      '--to-node',
      String(to),
      '--batch-size',
      '2',
      '--json',
    ]);
    expect(res.code, res.stderr).to.equal(0);
    expect(res.json()).to.deep.equal({ from_node_id: from, to_node_id: to, moved: 4, batches: 2 });
    const listed = (await api().get(`/api/v3/topics?node_id=${to}`).set(alice.auth).expect(200)).body.topics;
    expect(listed).to.have.length(4);
    expect(listed.every((t: { lock_node: boolean }) => t.lock_node)).to.equal(true);
    const counts = await env.sql<{ id: number; topics_count: number }>(
      'select id, topics_count from nodes where id in ($1, $2) order by id',
      [from, to],
    );
    expect(counts.map((c) => c.topics_count)).to.deep.equal([0, 4]);
    const notes = await env.sql<{ user_id: number }>("select user_id from notifications where type = 'NodeChanged'");
    expect(notes).to.have.length(4);
    expect((await forumctl(['maintenance', 'recount', '--json'])).json()).to.deep.equal({
      corrected: { topics: 0, replies: 0, nodes: 0, users: 0, activity: 0, unread: 0 },
    });
  });

  it('exits 3 for a member, 4 for an unknown node, 2 for a mixed or missing form', async () => {
    await makeUser('alice');
    const from = await makeNode('Old');
    const to = await makeNode('New');
    expect(
      (await forumctl(['topics', 'move', '--from-node', String(from), '--to-node', String(to), '--as', 'alice'])).code,
    ).to.equal(3);
    expect((await forumctl(['topics', 'move', '--from-node', '9999', '--to-node', String(to)])).code).to.equal(4);
    expect((await forumctl(['topics', 'move', '1', '--from-node', String(from), '--to-node', String(to)])).code).to.equal(2);
    expect((await forumctl(['topics', 'move'])).code).to.equal(2);
    expect((await forumctl(['topics', 'move', '--from-node', String(from), '--to-node', String(from)])).code).to.equal(2);
  });
});

describe('forumctl seed', () => {
  it('generates the asked amounts in bulk, with consistent counters', async () => {
    const env = testEnv();
    const res = await forumctl([
      'seed',
      '--users',
      '5',
      '--nodes',
      '2',
      '--topics',
      '20',
      '--replies',
      '100',
      '--likes',
      '40',
      '--notifications',
      '50',
      '--json',
    ]);
    expect(res.code, res.stderr).to.equal(0);
    expect(res.json<{ seeded: Record<string, number> }>().seeded).to.deep.equal({
      users: 5,
      nodes: 2,
      topics: 20,
      replies: 100,
      likes: 40,
      notifications: 50,
    });
    const [counts] = await env.sql<Record<string, number>>(
      `select (select count(*)::int from users where login like 'seed%') as users, (select count(*)::int from topics) as topics,
              (select count(*)::int from replies) as replies, (select count(*)::int from notifications) as notifications`,
    );
    expect(counts).to.include({ users: 5, topics: 20, replies: 100 });
    expect(counts!.notifications).to.be.within(1, 50);
    expect((await forumctl(['maintenance', 'recount', '--json'])).json()).to.deep.equal({
      corrected: { topics: 0, replies: 0, nodes: 0, users: 0, activity: 0, unread: 0 },
    });
    // Seeded text is searchable in both languages, indexed with the very words and text the indexer gives it.
    const found = async (q: string) =>
      (await api().get('/api/v3/search').query({ q, limit: 50 }).expect(200)).body.results.map(
        (result: { topic: { id: number }; reply?: { id: number } }) => `${result.topic.id}/${result.reply?.id ?? ''}`,
      );
    const index = () =>
      env.sql(`select topic_id, reply_id, strip(vector)::text as words, strip(title_vector)::text as title, text
               from search_documents order by topic_id, reply_id nulls first`);
    const seededIndex = await index();
    expect(seededIndex).to.have.length(120);
    // Every title and sentence is used (a pick that skipped some would leave their words unfindable).
    const [used] = await env.sql<{ titles: number; sentences: number }>(
      `select (select count(distinct regexp_replace(title, ' #[0-9]+$', ''))::int from topics) as titles,
              (select count(*)::int from unnest($1::text[]) s
               where exists (select 1 from replies r where position(s in r.body) > 0)) as sentences`,
      [SEED_SENTENCES],
    );
    expect(used).to.deep.equal({ titles: Math.min(SEED_TITLES.length, 20), sentences: SEED_SENTENCES.length });
    const [chinese, english] = [await found('数据库'), await found('database')];
    expect(chinese).to.not.be.empty;
    expect(english).to.not.be.empty;
    expect((await forumctl(['search', 'reindex'])).code).to.equal(0);
    expect(await index()).to.deep.equal(seededIndex);
    expect(await found('数据库')).to.deep.equal(chinese);

    const login = (await env.sql<{ login: string }>("select login from users where login like 'seed%' order by id limit 1"))[0]!
      .login;
    const app = (await forumctl(['apps', 'create', 'seed test', '--json'])).json<{ client_id: string; client_secret: string }>();
    await api()
      .post('/oauth/token')
      .send({ grant_type: 'password', username: login, password: 'seed-password', ...app })
      .expect(200);
  });

  it('refuses impossible plans with exit 2', async () => {
    expect((await forumctl(['seed', '--users', '0', '--topics', '5'])).code).to.equal(2);
    expect((await forumctl(['seed', '--topics', 'many'])).code).to.equal(2);
  });
});
