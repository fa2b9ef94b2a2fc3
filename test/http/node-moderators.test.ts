import { expect } from 'chai';
import { api, makeGroup, makeNode, makeReply, makeTopic, makeUser, setNodeAccess, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/**
 * Contract §23: a node's moderators (`--moderators <group>`) pin, excellent, close, move (between nodes they
 * moderate), ban and delete there, and resolve the review items of posts there; everything else stays the
 * administrators'. Each act is audited with the moderator as its actor.
 */
describe('node moderators (contract §23)', () => {
  let keeper: TestUser;
  let author: TestUser;
  let ruby: number;
  let rails: number;
  let go: number;
  let inRuby: number;
  let inGo: number;

  beforeEach(async () => {
    keeper = await makeUser('keeper');
    author = await makeUser('author');
    ruby = await makeNode('Ruby');
    rails = await makeNode('Rails');
    go = await makeNode('Go');
    await makeGroup('keepers', [keeper]);
    await setNodeAccess(ruby, { moderators: ['keepers'] });
    await setNodeAccess(rails, { moderators: ['keepers'] });
    inRuby = await makeTopic(author, ruby, 'In Ruby');
    inGo = await makeTopic(author, go, 'In Go');
  });

  const act = (who: TestUser, topic: number, type: string) =>
    api().post(`/api/v3/topics/${topic}/action?type=${type}`).set(who.auth);

  it('shows the moderation abilities on their node’s topics only', async () => {
    const shown = (await api().get(`/api/v3/topics/${inRuby}`).set(keeper.auth).expect(200)).body.topic.abilities;
    expect(shown).to.deep.equal({
      update: false,
      destroy: true,
      ban: true,
      normal: true,
      excellent: true,
      unexcellent: true,
      close: true,
      open: true,
    });
    const elsewhere = (await api().get(`/api/v3/topics/${inGo}`).set(keeper.auth).expect(200)).body.topic.abilities;
    expect(elsewhere).to.include({ destroy: false, ban: false, excellent: false, close: false });
    const listed = (await api().get('/api/v3/topics').set(keeper.auth).expect(200)).body.topics as {
      id: number;
      abilities: { ban: boolean };
    }[];
    expect(listed.map((t) => [t.id, t.abilities.ban])).to.deep.include.members([
      [inRuby, true],
      [inGo, false],
    ]);
  });

  it('acts there as an administrator would, and is refused elsewhere; the audit log names the moderator', async () => {
    for (const type of ['excellent', 'close', 'suggest']) {
      await act(keeper, inRuby, type).expect(200);
      await act(keeper, inGo, type).expect(403);
    }
    const topic = (await api().get(`/api/v3/topics/${inRuby}`).expect(200)).body.topic;
    expect(topic).to.include({ grade: 'excellent' });
    expect(topic.closed_at).to.be.a('string');
    await api().post(`/api/v3/topics/${inGo}/ban`).set(keeper.auth).expect(403);
    await api().post(`/api/v3/topics/${inRuby}/ban`).set(keeper.auth).expect(200);
    const entries = await testEnv().sql<{ action: string; actor_id: number }>(
      "select action, actor_id from audit_entries where target_type = 'Topic' order by id",
    );
    expect(entries.map((e) => e.action)).to.deep.equal(['topic.excellent', 'topic.close', 'topic.suggest', 'topic.ban']);
    expect(new Set(entries.map((e) => e.actor_id))).to.deep.equal(new Set([keeper.id]));
  });

  it('deletes topics and replies there, not elsewhere, as the replies’ abilities say', async () => {
    const reply = await makeReply(author, inRuby, 'a reply in Ruby');
    const replyInGo = await makeReply(author, inGo, 'a reply in Go');
    const abilitiesIn = async (topic: number) =>
      (
        (await api().get(`/api/v3/topics/${topic}/replies`).set(keeper.auth).expect(200)).body.replies as {
          abilities: { update: boolean; destroy: boolean };
        }[]
      )[0]!.abilities;
    expect(await abilitiesIn(inRuby)).to.deep.equal({ update: false, destroy: true });
    expect(await abilitiesIn(inGo)).to.deep.equal({ update: false, destroy: false });
    await api().delete(`/api/v3/replies/${replyInGo}`).set(keeper.auth).expect(403);
    await api().delete(`/api/v3/replies/${reply}`).set(keeper.auth).expect(200);
    await api().delete(`/api/v3/topics/${inGo}`).set(keeper.auth).expect(403);
    await api().delete(`/api/v3/topics/${inRuby}`).set(keeper.auth).expect(200);
    await api().get(`/api/v3/topics/${inRuby}`).expect(404);
  });

  it('moves a topic between nodes they moderate, and nowhere else', async () => {
    const moved = await forumctl(['topics', 'move', String(inRuby), '--node', String(rails), '--as', 'keeper']);
    expect(moved.code, moved.stderr).to.equal(0);
    const refused = await forumctl(['topics', 'move', String(inRuby), '--node', String(go), '--as', 'keeper']);
    expect(refused.code).to.not.equal(0);
    const [row] = await testEnv().sql<{ node_id: number }>('select node_id from topics where id = $1', [inRuby]);
    expect(row!.node_id).to.equal(rails);
  });

  it('reviews the flags of posts in their nodes only, and leaves spammers and silences to administrators', async () => {
    const flagger = await makeUser('flagger');
    await api().post(`/api/v3/topics/${inRuby}/flag`).set(flagger.auth).send({ reason: 'spam' }).expect(200);
    await api().post(`/api/v3/topics/${inGo}/flag`).set(flagger.auth).send({ reason: 'spam' }).expect(200);
    const items = (await api().get('/api/v3/admin/review').set(keeper.auth).expect(200)).body.items as {
      id: number;
      target_id: number;
    }[];
    expect(items.map((item) => item.target_id)).to.deep.equal([inRuby]);
    const [goItem] = await testEnv().sql<{ id: number }>(
      "select id from review_items where target_type = 'Topic' and target_id = $1",
      [inGo],
    );
    await api().get(`/api/v3/admin/review/${goItem!.id}`).set(keeper.auth).expect(404);
    await api().post(`/api/v3/admin/review/${goItem!.id}`).set(keeper.auth).send({ action: 'agree' }).expect(404);
    const mine = items[0]!.id;
    await api().post(`/api/v3/admin/review/${mine}`).set(keeper.auth).send({ action: 'spammer' }).expect(403);
    await api().post(`/api/v3/admin/review/${mine}`).set(keeper.auth).send({ action: 'agree', silence_days: 3 }).expect(403);
    await api().post(`/api/v3/admin/review/${mine}`).set(keeper.auth).send({ action: 'agree' }).expect(200);
    await api().get(`/api/v3/topics/${inRuby}`).expect(404);
    // Someone who moderates nothing may not review at all.
    await api().get('/api/v3/admin/review').set(flagger.auth).expect(403);
  });

  it('loses it all when they leave the group', async () => {
    await testEnv().sql('delete from group_members where user_id = $1', [keeper.id]);
    await act(keeper, inRuby, 'excellent').expect(403);
    await api().get('/api/v3/admin/review').set(keeper.auth).expect(403);
  });
});
