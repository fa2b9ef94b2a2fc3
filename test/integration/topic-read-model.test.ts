import { expect } from 'chai';
import type { TopicListType } from '../../src/application/read-models.js';
import { insertReply, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/** Sets counters and activity directly, as replies and likes (later issues) would. */
async function shape(id: number, fields: { likes?: number; replies?: number; activeMinutesAgo?: number; excellent?: boolean }) {
  await testEnv().sql(
    `update topics set likes_count = coalesce($1, likes_count), replies_count = coalesce($2, replies_count),
       last_active_at = coalesce(now() - make_interval(mins => $3), last_active_at),
       grade = case when $4 then 'excellent' else grade end
     where id = $5`,
    [fields.likes ?? null, fields.replies ?? null, fields.activeMinutesAgo ?? null, fields.excellent ?? false, id],
  );
}

async function list(type: TopicListType, viewer: TestUser | null = null, nodeId: number | null = null, offset = 0, limit = 20) {
  const env = testEnv();
  const { result } = await env.scope(() => env.useCases.topics.list({ type, nodeId, offset, limit }, { actor: viewer }));
  return result!.map((topic) => topic.id);
}

describe('SqlTopicReadModel#list', () => {
  let alice: TestUser;
  let bob: TestUser;
  let general: number;
  let hidden: number;
  let ids: Record<string, number>;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    general = await makeNode('General');
    hidden = await makeNode('Secret', { hidden: true });
    ids = {
      old: await makeTopic(alice, general, 'old'),
      popular: await makeTopic(bob, general, 'popular'),
      excellent: await makeTopic(alice, general, 'excellent'),
      answered: await makeTopic(bob, general, 'answered'),
      secret: await makeTopic(alice, hidden, 'secret'),
    };
    await shape(ids.old!, { activeMinutesAgo: 50 });
    await shape(ids.popular!, { likes: 6, activeMinutesAgo: 10 });
    await shape(ids.excellent!, { excellent: true, activeMinutesAgo: 40 });
    await shape(ids.answered!, { replies: 2, activeMinutesAgo: 1 });
    await shape(ids.secret!, { activeMinutesAgo: 30 });
  });

  it('last_actived: newest activity first; anonymous callers never see hidden nodes', async () => {
    expect(await list('last_actived')).to.deep.equal([ids.answered, ids.popular, ids.excellent, ids.old]);
  });

  it('recent: by id, newest first', async () => {
    expect(await list('recent')).to.deep.equal([ids.answered, ids.excellent, ids.popular, ids.old]);
  });

  it('no_reply: only topics without replies, by last activity', async () => {
    expect(await list('no_reply')).to.deep.equal([ids.popular, ids.excellent, ids.old]);
  });

  it('popular: only topics with more than 5 likes', async () => {
    await shape(ids.old!, { likes: 5 });
    expect(await list('popular')).to.deep.equal([ids.popular]);
  });

  it('excellent: only excellent topics, newest first', async () => {
    await shape(ids.old!, { excellent: true });
    expect(await list('excellent')).to.deep.equal([ids.excellent, ids.old]);
  });

  it("shows hidden nodes to users, minus their blocked nodes and blocked users' topics", async () => {
    const carol = await makeUser('carol');
    expect(await list('last_actived', carol)).to.include(ids.secret);
    await testEnv().sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [carol.id, hidden]);
    await testEnv().sql('insert into user_blocks (user_id, blocked_user_id) values ($1, $2)', [carol.id, bob.id]);
    expect(await list('last_actived', carol)).to.deep.equal([ids.excellent, ids.old]);
  });

  it('with node_id: that node only, hidden or not, and no block filters', async () => {
    await testEnv().sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [alice.id, hidden]);
    expect(await list('last_actived', null, hidden)).to.deep.equal([ids.secret]);
    expect(await list('last_actived', alice, hidden)).to.deep.equal([ids.secret]);
  });

  it('applies offset and limit after ordering', async () => {
    expect(await list('recent', null, null, 1, 2)).to.deep.equal([ids.excellent, ids.popular]);
  });

  it('never lists deleted topics', async () => {
    await testEnv().sql('update topics set deleted_at = now() where id = $1', [ids.popular]);
    expect(await list('recent')).to.not.include(ids.popular);
  });

  it("knows whether others replied, for the owner's destroy ability", async () => {
    await insertReply(ids.old!, bob.id);
    const env = testEnv();
    const { result } = await env.scope(() =>
      env.useCases.topics.list({ type: 'recent', nodeId: null, offset: 4, limit: 1 }, { actor: alice }),
    );
    const asOwner = result![0];
    expect(asOwner!.id).to.equal(ids.old);
    expect(asOwner!.hasRepliesFromOthers).to.equal(true);
  });
});

describe('SqlTopicReadModel#show', () => {
  it('adds exactly 100 hits for 100 concurrent reads', async () => {
    const alice = await makeUser('alice');
    const id = await makeTopic(alice, await makeNode('General'));
    const env = testEnv();
    await Promise.all(Array.from({ length: 100 }, () => env.scope(() => env.useCases.showTopic.execute({ actor: null }, id))));
    const [row] = await env.sql<{ hits: number }>('select hits from topics where id = $1', [id]);
    expect(row!.hits).to.equal(100);
  });

  it("reports the viewer's followed, liked and favorited state", async () => {
    const alice = await makeUser('alice');
    const id = await makeTopic(alice, await makeNode('General'));
    const env = testEnv();
    await env.sql("insert into likes (target_type, target_id, user_id) values ('topic', $1, $2)", [id, alice.id]);
    await env.sql('insert into topic_follows (topic_id, user_id) values ($1, $2)', [id, alice.id]);
    const shown = await env.scope(() => env.useCases.topics.show(id, { actor: alice }));
    expect(shown.result!.meta).to.deep.equal({ followed: true, liked: true, favorited: false });
    const anonymous = await env.scope(() => env.useCases.topics.show(id, { actor: null }));
    expect(anonymous.result!.meta).to.deep.equal({ followed: false, liked: false, favorited: false });
  });
});
