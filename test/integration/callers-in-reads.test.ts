import { expect } from 'chai';
import type { CallerRef } from '../../src/application/actor.js';
import { insertReply, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/**
 * The hottest reads look the bearer token up in their own statement (issue 18). Whatever the form of the caller,
 * they must find the same user as the token store does, and treat a token that is not live as no caller at all.
 */
describe('reads that identify their caller themselves', () => {
  let alice: TestUser;
  let bob: TestUser;
  let general: number;
  let hidden: number;
  let visibleTopic: number;
  let hiddenTopic: number;
  let bobsTopic: number;

  const byToken = (token: string): CallerRef => testEnv().useCases.authenticate.reference(token);

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    general = await makeNode('General');
    hidden = await makeNode('Hidden', { hidden: true });
    visibleTopic = await makeTopic(alice, general, 'Visible');
    hiddenTopic = await makeTopic(alice, hidden, 'In a hidden node');
    bobsTopic = await makeTopic(bob, general, 'By bob');
    await testEnv().sql('insert into user_blocks (user_id, blocked_user_id) values ($1, $2)', [alice.id, bob.id]);
  });

  async function revoked(user: TestUser): Promise<string> {
    const env = testEnv();
    const issued = await env.scope(() => env.useCases.issueToken.execute({ userId: user.id, clientId: null }));
    await env.scope(() => env.useCases.revokeToken.execute(issued.access_token));
    return issued.access_token;
  }

  async function expired(user: TestUser): Promise<string> {
    const env = testEnv();
    const issued = await env.scope(() => env.useCases.issueToken.execute({ userId: user.id, clientId: null }));
    const { accessDigest } = byToken(issued.access_token) as { accessDigest: string };
    await env.sql("update oauth_tokens set expires_at = now() - interval '1 second' where access_digest = $1", [accessDigest]);
    return issued.access_token;
  }

  it('lists topics as the token’s user (blocks applied), and as the signed-out for a token not live', async () => {
    const env = testEnv();
    const query = { type: 'recent' as const, nodeId: null, offset: 0, limit: 20 };
    const signedIn = await env.useCases.topics.list(query, byToken(alice.token));
    expect(signedIn.viewer).to.deep.equal({ id: alice.id, login: 'alice', role: 'member' });
    expect(signedIn.result!.map((t) => t.id)).to.have.members([visibleTopic, hiddenTopic]);

    for (const token of [await revoked(alice), await expired(alice), 'not-a-token']) {
      const anonymous = await env.useCases.topics.list(query, byToken(token));
      expect(anonymous.viewer).to.equal(null);
      expect(anonymous.result!.map((t) => t.id)).to.have.members([visibleTopic, bobsTopic]);
    }
  });

  it('tells an unknown node (null) from a node without topics (an empty page)', async () => {
    const env = testEnv();
    const empty = await makeNode('Empty');
    const page = { type: 'last_actived' as const, offset: 0, limit: 20 };
    const none = await env.useCases.topics.list({ ...page, nodeId: empty }, byToken(alice.token));
    expect(none).to.deep.equal({ viewer: { id: alice.id, login: 'alice', role: 'member' }, result: [] });
    const unknown = await env.useCases.topics.list({ ...page, nodeId: empty + 1000 }, byToken(alice.token));
    expect(unknown.result).to.equal(null);
  });

  it('shows a topic: the hit counted, the caller’s notifications about it read, nobody else’s', async () => {
    const env = testEnv();
    for (const user of [alice, bob]) {
      await env.sql("insert into notifications (user_id, actor_id, type, topic_id) values ($1, $2, 'Topic', $3)", [
        user.id,
        alice.id,
        visibleTopic,
      ]);
    }
    const unread = async (user: TestUser) =>
      (
        await env.sql<{ n: number }>('select count(*)::int as n from notifications where user_id = $1 and read_at is null', [
          user.id,
        ])
      )[0]!.n;

    const revokedToken = await revoked(bob);
    const asRevoked = await env.scope(() => env.useCases.showTopic.execute(byToken(revokedToken), visibleTopic));
    expect(asRevoked.viewer).to.equal(null);
    expect(await unread(bob)).to.equal(1);

    const [{ last }] = (await env.sql<{ last: number }>('select coalesce(max(id), 0)::int as last from events')) as [
      { last: number },
    ];
    const readEvents = async () =>
      (
        await env.sql<{ payload: { userIds: number[] } }>(
          "select payload from events where type = 'notification.read' and id > $1 order by id",
          [last],
        )
      ).map((row) => row.payload.userIds);
    const shown = await env.scope(() => env.useCases.showTopic.execute(byToken(alice.token), visibleTopic));
    expect(shown.viewer!.id).to.equal(alice.id);
    expect(shown.result.topic.hits).to.equal(2);
    expect(shown.result.markedRead).to.equal(true);
    expect(await unread(alice)).to.equal(0);
    expect(await unread(bob)).to.equal(1);
    // The unread count changed: said as an event (live streams send the new count), once.
    expect(await readEvents()).to.deep.equal([[alice.id]]);
    await env.scope(() => env.useCases.showTopic.execute(byToken(alice.token), visibleTopic));
    expect(await readEvents()).to.deep.equal([[alice.id]]);

    await env.sql('update topics set deleted_at = now() where id = $1', [visibleTopic]);
    const gone = await env.useCases.topics.show(visibleTopic, byToken(bob.token));
    expect(gone).to.deep.equal({ viewer: { id: bob.id, login: 'bob', role: 'member' }, result: null });
    expect(await unread(bob)).to.equal(1);
  });

  it('lists replies with the caller’s likes; null for a deleted topic, an empty page for a topic without replies', async () => {
    const env = testEnv();
    const replyId = await insertReply(visibleTopic, bob.id);
    await env.sql("insert into likes (target_type, target_id, user_id) values ('reply', $1, $2)", [replyId, alice.id]);
    const page = { offset: 0, limit: 20 };
    const listed = await env.useCases.replies.listForTopic(visibleTopic, page, byToken(alice.token));
    expect(listed.viewer!.id).to.equal(alice.id);
    expect(listed.result!.likedReplyIds).to.deep.equal([replyId]);
    const asNobody = await env.useCases.replies.listForTopic(visibleTopic, page, byToken(await expired(alice)));
    expect(asNobody.viewer).to.equal(null);
    expect(asNobody.result!.likedReplyIds).to.deep.equal([]);

    const quiet = await env.useCases.replies.listForTopic(bobsTopic, page, byToken(alice.token));
    expect(quiet.result).to.deep.equal({ replies: [], likedReplyIds: [] });
    await env.sql('update topics set deleted_at = now() where id = $1', [bobsTopic]);
    expect((await env.useCases.replies.listForTopic(bobsTopic, page, byToken(alice.token))).result).to.equal(null);
  });

  it('counts unread notifications of the token’s user; 401 when the token is not live', async () => {
    const env = testEnv();
    await env.sql("insert into notifications (user_id, actor_id, type, topic_id) values ($1, $2, 'Topic', $3)", [
      alice.id,
      bob.id,
      visibleTopic,
    ]);
    const counted = await env.useCases.countUnreadNotifications.execute(byToken(alice.token));
    expect(counted).to.deep.equal({ viewer: { id: alice.id, login: 'alice', role: 'member' }, result: 1 });
    const refused = await env.useCases.countUnreadNotifications.execute(byToken(await revoked(alice))).catch((e: Error) => e);
    expect(refused).to.be.instanceOf(Error).with.property('code', 'Unauthenticated');
  });
});
