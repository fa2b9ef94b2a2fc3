import { expect } from 'chai';
import { makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

describe('replies and likes under concurrency', () => {
  it('50 parallel replies leave replies_count = 50 and the last reply as the latest one', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => makeUser(`user${i}`)));
    await Promise.all(Array.from({ length: 50 }, (_, i) => makeReply(users[i % 5]!, topicId, `reply ${i}`)));
    const [topic] = await env.sql<{
      replies_count: number;
      last_reply_id: number;
      last_reply_user_id: number;
      replied_at: Date;
    }>('select replies_count, last_reply_id, last_reply_user_id, replied_at from topics where id = $1', [topicId]);
    const [last] = await env.sql<{ id: number; user_id: number; created_at: Date }>(
      'select id, user_id, created_at from replies where topic_id = $1 order by id desc limit 1',
      [topicId],
    );
    expect(topic!.replies_count).to.equal(50);
    expect(topic!.last_reply_id).to.equal(last!.id);
    expect(topic!.last_reply_user_id).to.equal(last!.user_id);
    expect(topic!.replied_at).to.deep.equal(last!.created_at);
  });

  it('deleting replies while others are written keeps replies_count true', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const doomed = await Promise.all(Array.from({ length: 10 }, () => makeReply(bob, topicId)));
    await Promise.all([
      ...doomed.map((id) => env.scope(() => env.useCases.deleteReply.execute(bob, id))),
      ...Array.from({ length: 10 }, () => makeReply(bob, topicId)),
    ]);
    const [topic] = await env.sql<{ replies_count: number }>('select replies_count from topics where id = $1', [topicId]);
    expect(topic!.replies_count).to.equal(10);
  });

  it('20 users liking one reply in parallel leave likes_count = 20', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const replyId = await makeReply(alice, topicId);
    const users = await Promise.all(Array.from({ length: 20 }, (_, i) => makeUser(`fan${i}`)));
    await Promise.all(
      users.map((user) => env.scope(() => env.useCases.like.execute(user, { type: 'reply', id: replyId }, true))),
    );
    const [reply] = await env.sql<{ likes_count: number }>('select likes_count from replies where id = $1', [replyId]);
    expect(reply!.likes_count).to.equal(20);
    const [likes] = await env.sql<{ n: number }>('select count(*)::int as n from likes');
    expect(likes!.n).to.equal(20);
  });

  it('the same user liking twice in parallel counts once', async () => {
    const env = testEnv();
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topicId = await makeTopic(alice, await makeNode('General'));
    await Promise.all(
      Array.from({ length: 5 }, () => env.scope(() => env.useCases.like.execute(bob, { type: 'topic', id: topicId }, true))),
    );
    const [topic] = await env.sql<{ likes_count: number }>('select likes_count from topics where id = $1', [topicId]);
    expect(topic!.likes_count).to.equal(1);
  });
});
