import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/** Contract §22: where each reader left off, as the API gives it (the first part: marks, read_state, the counts). */
describe('read state over HTTP (contract §22)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    carol = await makeUser('carol');
    general = await makeNode('General');
  });

  /** The read_state of `topicId` in `user`'s default list (undefined: the item has no such key). */
  async function readStateIn(user: TestUser | null, topicId: number): Promise<unknown> {
    const request = api().get('/api/v3/topics?limit=100');
    const res = await (user ? request.set(user.auth) : request).expect(200);
    const item = (res.body.topics as { id: number; read_state?: unknown }[]).find((topic) => topic.id === topicId);
    expect(item, `topic ${topicId} in the list`).to.not.equal(undefined);
    return 'read_state' in item! ? item.read_state : undefined;
  }

  const counts = async (user: TestUser) => (await api().get('/api/v3/topics/unread_count').set(user.auth).expect(200)).body;
  const readReplies = (user: TestUser, topicId: number, query = '') =>
    api().get(`/api/v3/topics/${topicId}/replies${query}`).set(user.auth).expect(200);
  const markRow = async (user: TestUser, topicId: number) =>
    (
      await testEnv().sql<{ last_read_reply_id: number | null; xmin: string }>(
        'select last_read_reply_id, xmin::text from topic_reads where user_id = $1 and topic_id = $2',
        [user.id, topicId],
      )
    )[0];

  it('gives no read_state signed out, null until opened, and opening a topic reads none of its replies', async () => {
    const topicId = await makeTopic(alice, general, 'Pancakes');
    await makeReply(bob, topicId, 'one');
    await makeReply(bob, topicId, 'two');
    expect(await readStateIn(null, topicId)).to.equal(undefined);
    expect(await readStateIn(carol, topicId)).to.equal(null);

    await api().get(`/api/v3/topics/${topicId}`).set(carol.auth).expect(200);
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: null, unread_replies_count: 2 });
    // Opened once is opened: a second show writes nothing.
    const opened = await markRow(carol, topicId);
    await api().get(`/api/v3/topics/${topicId}`).set(carol.auth).expect(200);
    expect(await markRow(carol, topicId)).to.deep.equal(opened);
  });

  it('moves the mark to the last reply a page returned, only forward, writing only when it moves', async () => {
    const topicId = await makeTopic(alice, general);
    const ids: number[] = [];
    for (const body of ['r1', 'r2', 'r3', 'r4']) ids.push(await makeReply(bob, topicId, body));

    await readReplies(carol, topicId, '?limit=2');
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: ids[1], unread_replies_count: 2 });
    await readReplies(carol, topicId, '?offset=2&limit=2');
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: ids[3], unread_replies_count: 0 });

    // Going back to the first page moves nothing, and writes nothing (the row's version stays).
    const read = await markRow(carol, topicId);
    await readReplies(carol, topicId, '?limit=2');
    await readReplies(carol, topicId);
    expect(await markRow(carol, topicId)).to.deep.equal(read);

    // A new reply is unread, and its reading moves the mark again.
    const fifth = await makeReply(alice, topicId, 'r5');
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: ids[3], unread_replies_count: 1 });
    await readReplies(carol, topicId, '?offset=4');
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: fifth, unread_replies_count: 0 });
  });

  it('keeps each reader’s marks their own', async () => {
    const topicId = await makeTopic(alice, general);
    const first = await makeReply(alice, topicId, 'r1');
    await makeReply(alice, topicId, 'r2');
    await readReplies(bob, topicId, '?limit=1');
    await readReplies(carol, topicId);
    expect(await readStateIn(bob, topicId)).to.deep.equal({ last_read_reply_id: first, unread_replies_count: 1 });
    expect(await readStateIn(carol, topicId)).to.deep.equal({
      last_read_reply_id: (await markRow(carol, topicId))!.last_read_reply_id,
      unread_replies_count: 0,
    });
    expect(await readStateIn(alice, topicId)).to.equal(null);
  });

  it('counts as unread neither one’s own replies, nor a blocked member’s, nor a deleted or held one', async () => {
    const topicId = await makeTopic(alice, general);
    await api().get(`/api/v3/topics/${topicId}`).set(carol.auth).expect(200);
    await makeReply(carol, topicId, 'my own');
    const blocked = await makeReply(bob, topicId, 'from someone carol blocks');
    await api().post('/api/v3/users/bob/block').set(carol.auth).expect(200);
    const deleted = await makeReply(alice, topicId, 'deleted soon');
    await api().delete(`/api/v3/replies/${deleted}`).set(alice.auth).expect(200);
    await testEnv().sql("update replies set visibility = 'held' where id = $1", [await makeReply(alice, topicId, 'held')]);
    await makeReply(alice, topicId, 'the one that counts');
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: null, unread_replies_count: 1 });
    expect(blocked).to.be.a('number');
  });

  it('counts unread and new topics for the caller; 401 signed out', async () => {
    await api().get('/api/v3/topics/unread_count').expect(401);
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 0 });

    const mine = await makeTopic(carol, general, 'Carol’s own');
    const opened = await makeTopic(alice, general, 'Opened');
    const fresh = await makeTopic(bob, general, 'Fresh');
    const old = await makeTopic(bob, general, 'Old');
    await testEnv().sql("update topics set created_at = now() - interval '15 days' where id = $1", [old]);
    // Her own topic is never new to her, nor one older than 14 days.
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 2 });

    await api().get(`/api/v3/topics/${opened}`).set(carol.auth).expect(200);
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 1 });
    await makeReply(bob, opened, 'news');
    await makeReply(alice, mine, 'on carol’s topic, which she never opened here');
    expect(await counts(carol)).to.deep.equal({ unread: 1, new: 1 });
    await readReplies(carol, opened);
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 1 });

    // A topic moved out of her lists (a node she blocks) leaves her counts.
    const other = await makeNode('Elsewhere');
    await api().get(`/api/v3/topics/${fresh}`).set(carol.auth).expect(200);
    await makeReply(alice, fresh, 'unread');
    expect(await counts(carol)).to.deep.equal({ unread: 1, new: 0 });
    await testEnv().sql('update topics set node_id = $2 where id = $1', [fresh, other]);
    await api().post(`/api/v3/nodes/${other}/block`).set(carol.auth).expect(200);
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 0 });
    expect(await counts(bob)).to.deep.equal({ unread: 0, new: 2 });
  });

  const listed = async (user: TestUser, type: string, query = '') =>
    (
      (await api().get(`/api/v3/topics?type=${type}${query}`).set(user.auth).expect(200)).body.topics as {
        title: string;
      }[]
    ).map((topic) => topic.title);

  it('lists a reader’s unread and new topics, newest activity first, for them alone (401 signed out)', async () => {
    await api().get('/api/v3/topics?type=unread').expect(401);
    await api().get('/api/v3/topics?type=new').expect(401);
    const first = await makeTopic(alice, general, 'First');
    const second = await makeTopic(alice, general, 'Second');
    await makeTopic(carol, general, 'Carol’s');
    expect(await listed(carol, 'new')).to.deep.equal(['Second', 'First']);
    expect(await listed(carol, 'unread')).to.deep.equal([]);

    await api().get(`/api/v3/topics/${first}`).set(carol.auth).expect(200);
    await api().get(`/api/v3/topics/${second}`).set(carol.auth).expect(200);
    expect(await listed(carol, 'new')).to.deep.equal([]);
    await makeReply(bob, first, 'news on the first');
    await makeReply(bob, second, 'news on the second');
    await makeReply(bob, first, 'more news on the first');
    expect(await listed(carol, 'unread')).to.deep.equal(['First', 'Second']);
    expect(await listed(carol, 'unread', '&limit=1&offset=1')).to.deep.equal(['Second']);
    // Bob never opened them (he replied through the API's use case): new to him, not unread, by their last activity.
    expect(await listed(bob, 'unread')).to.deep.equal([]);
    expect(await listed(bob, 'new')).to.deep.equal(['First', 'Second', 'Carol’s']);
  });

  it('marks a topic read up to a reply or to its last, only forward, and unread as if never opened', async () => {
    const topicId = await makeTopic(alice, general);
    const one = await makeReply(bob, topicId, 'one');
    const two = await makeReply(bob, topicId, 'two');
    await api().post(`/api/v3/topics/${topicId}/read`).set(carol.auth).send({ reply_id: one }).expect(200, { ok: 1 });
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: one, unread_replies_count: 1 });
    await api().post(`/api/v3/topics/${topicId}/read`).set(carol.auth).expect(200, { ok: 1 });
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: two, unread_replies_count: 0 });
    // Back to an earlier reply: nothing moves.
    await api().post(`/api/v3/topics/${topicId}/read`).set(carol.auth).send({ reply_id: one }).expect(200);
    expect(await readStateIn(carol, topicId)).to.deep.equal({ last_read_reply_id: two, unread_replies_count: 0 });

    // A reply of another topic, or none, is not found; a topic she may not open neither.
    const other = await makeTopic(alice, general, 'Other');
    const elsewhere = await makeReply(bob, other, 'elsewhere');
    await api().post(`/api/v3/topics/${topicId}/read`).set(carol.auth).send({ reply_id: elsewhere }).expect(404);
    await api().post(`/api/v3/topics/${topicId}/read`).set(carol.auth).send({ reply_id: 'x' }).expect(400);
    await api().post('/api/v3/topics/999999/read').set(carol.auth).expect(404);
    await api().post(`/api/v3/topics/${topicId}/read`).expect(401);

    await api().delete(`/api/v3/topics/${topicId}/read`).set(carol.auth).expect(200, { ok: 1 });
    expect(await readStateIn(carol, topicId)).to.equal(null);
    expect(await listed(carol, 'new')).to.include('A topic');
  });

  it('marks every topic read, or every topic of a node', async () => {
    const other = await makeNode('Other');
    const here = await makeTopic(alice, general, 'Here');
    const there = await makeTopic(alice, other, 'There');
    await api().get(`/api/v3/topics/${here}`).set(carol.auth).expect(200);
    await makeReply(bob, here, 'unread here');
    await makeReply(bob, there, 'unread there');
    expect(await counts(carol)).to.deep.equal({ unread: 1, new: 1 });

    await api().post('/api/v3/topics/read').set(carol.auth).send({ node_id: other }).expect(200, { ok: 1 });
    expect(await counts(carol)).to.deep.equal({ unread: 1, new: 0 });
    await api().post('/api/v3/topics/read').set(carol.auth).send({ node_id: 999999 }).expect(404);
    await api().post('/api/v3/topics/read').set(carol.auth).expect(200, { ok: 1 });
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 0 });
    expect(await counts(bob)).to.deep.equal({ unread: 0, new: 2 });
    await api().post('/api/v3/topics/read').expect(401);
  });
  it('starts an imported member with every topic up to the import read up to it (their horizon)', async () => {
    const read = await makeTopic(alice, general, 'Imported');
    const replies = [await makeReply(bob, read, 'one'), await makeReply(bob, read, 'two')];
    const quiet = await makeTopic(alice, general, 'Imported, quiet');
    // What the import writes for each member it brings (apply.ts): the last topic and reply it brought, and when.
    await testEnv().sql('insert into read_horizons (user_id, topic_id, reply_id, read_at) values ($1, $2, $3, now())', [
      carol.id,
      quiet,
      replies[1],
    ]);
    expect(await readStateIn(carol, read)).to.deep.equal({ last_read_reply_id: replies[1], unread_replies_count: 0 });
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 0 });
    expect(await counts(bob)).to.deep.equal({ unread: 0, new: 2 });
    // Showing it and reading it writes nothing: it reads as read already.
    await api().get(`/api/v3/topics/${read}`).set(carol.auth).expect(200);
    await readReplies(carol, read);
    expect(await markRow(carol, read)).to.equal(undefined);
    expect(await readStateIn(carol, quiet)).to.deep.equal({ last_read_reply_id: null, unread_replies_count: 0 });
    // A mark set by hand below the horizon stays at it.
    await api().post(`/api/v3/topics/${read}/read`).set(carol.auth).send({ reply_id: replies[0] }).expect(200);
    expect(await readStateIn(carol, read)).to.deep.equal({ last_read_reply_id: replies[1], unread_replies_count: 0 });

    // What happens here after the import is new or unread, as for anyone.
    const later = await makeTopic(bob, general, 'Here since');
    const third = await makeReply(bob, read, 'three');
    expect(await counts(carol)).to.deep.equal({ unread: 1, new: 1 });
    expect(await listed(carol, 'unread')).to.deep.equal(['Imported']);
    expect(await listed(carol, 'new')).to.deep.equal(['Here since']);
    expect(await readStateIn(carol, read)).to.deep.equal({ last_read_reply_id: replies[1], unread_replies_count: 1 });
    await readReplies(carol, read, '?offset=2');
    expect(await readStateIn(carol, read)).to.deep.equal({ last_read_reply_id: third, unread_replies_count: 0 });

    // Marked unread, an imported topic is as if never opened (new while recent), until it is opened again.
    await api().delete(`/api/v3/topics/${read}/read`).set(carol.auth).expect(200, { ok: 1 });
    expect(await readStateIn(carol, read)).to.equal(null);
    expect(await listed(carol, 'new')).to.deep.equal(['Imported', 'Here since']);
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 2 });
    await api().get(`/api/v3/topics/${read}`).set(carol.auth).expect(200);
    expect(await readStateIn(carol, read)).to.deep.equal({ last_read_reply_id: null, unread_replies_count: 3 });
    expect(await counts(carol)).to.deep.equal({ unread: 1, new: 1 });
    await api().post('/api/v3/topics/read').set(carol.auth).expect(200, { ok: 1 });
    expect(await counts(carol)).to.deep.equal({ unread: 0, new: 0 });
    expect(await readStateIn(carol, later)).to.deep.equal({ last_read_reply_id: null, unread_replies_count: 0 });
  });
});
