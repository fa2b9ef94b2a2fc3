import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { CliUseCases } from '../../cli/runtime.js';

/**
 * Contract §24 and §9: forumctl reads no conversation. Named by its id (or one of its messages by its reply id), every
 * command answers as for a topic or reply that does not exist, whoever acts (the system moderator, an administrator,
 * a participant); no list, index or count carries one; and what acts on a user's posts leaves their messages alone.
 */

/** forumctl's answer, with `id` written as `<id>`: what it says of a conversation is what it says of nothing. */
async function answerTo(args: (string | number)[], id: number) {
  const res = await forumctl(args.map(String));
  return { code: res.code, stdout: res.stdout, stderr: res.stderr.replaceAll(String(id), '<id>') };
}

/** Commands that name a topic, each with `<id>` for it. */
const TOPIC_COMMANDS = [
  ['topics', 'show', '<id>'],
  ['topics', 'ban', '<id>', '--yes'],
  ['topics', 'delete', '<id>', '--yes'],
  ['topics', 'move', '<id>', '--node', '<node>'],
  ...['excellent', 'unexcellent', 'close', 'open', 'pin', 'unpin'].map((verb) => ['topics', verb, '<id>']),
  ['replies', 'list', '<id>'],
];

/** Commands that name a reply. */
const REPLY_COMMANDS = [['replies', 'delete', '<id>', '--yes']];

describe('forumctl reads no conversation (contract §24)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let node: number;
  let topic: number;
  let conversation: number;
  let message: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    await makeUser('root', 'admin');
    node = await makeNode('General');
    topic = await makeTopic(alice, node, 'A forum topic', 'open to all');
    await makeReply(bob, topic, 'a forum reply');
    const res = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['bob'], title: 'Secret plans', body: 'only for bob' })
      .expect(200);
    conversation = res.body.message.id as number;
    await api().post(`/api/v3/messages/${conversation}/replies`).set(bob.auth).send({ body: 'secret answer' }).expect(200);
    const [row] = await testEnv().sql<{ id: number }>('select id from replies where topic_id = $1', [conversation]);
    message = row!.id;
  });

  /** The conversation as its participants have it, untouched. */
  async function expectUntouched() {
    const [row] = await testEnv().sql<Record<string, unknown>>(
      `select t.node_id, t.deleted_at, t.grade, t.closed_at, t.suggested_at, r.deleted_at as message_deleted_at
       from topics t join replies r on r.topic_id = t.id where t.id = $1 and r.id = $2`,
      [conversation, message],
    );
    expect(row).to.deep.equal({
      node_id: null,
      deleted_at: null,
      grade: 'normal',
      closed_at: null,
      suggested_at: null,
      message_deleted_at: null,
    });
    const shown = await api().get(`/api/v3/messages/${conversation}/replies`).set(bob.auth).expect(200);
    expect(shown.body.replies.map((r: { body: string }) => r.body)).to.deep.equal(['secret answer']);
  }

  for (const actor of [[], ['--as', 'root'], ['--as', 'alice']]) {
    const who = actor.length === 0 ? 'the system moderator' : actor[1];
    it(`answers every command on a conversation or its message as on nothing, for ${who}`, async () => {
      const unknownTopic = conversation + 1000;
      const unknownReply = message + 1000;
      for (const [commands, id, unknown] of [
        [TOPIC_COMMANDS, conversation, unknownTopic],
        [REPLY_COMMANDS, message, unknownReply],
      ] as const) {
        for (const command of commands) {
          const args = (named: number) => [
            ...command.map((arg) => (arg === '<id>' ? String(named) : arg === '<node>' ? String(node) : arg)),
            ...actor,
          ];
          const told = await answerTo(args(id), id);
          expect(told.code, `${args(id).join(' ')}: ${told.stderr}`).to.equal(4);
          expect(told, args(id).join(' ')).to.deep.equal(await answerTo(args(unknown), unknown));
        }
      }
      await expectUntouched();
    });
  }

  it('still finds the forum’s topic and reply by the same commands (the walk above is not vacuous)', async () => {
    expect((await forumctl(['topics', 'show', String(topic)])).code).to.equal(0);
    expect((await forumctl(['replies', 'list', String(topic), '--as', 'alice'])).code).to.equal(0);
    expect((await forumctl(['topics', 'close', String(topic), '--as', 'alice'])).code).to.equal(0);
  });

  it('lists no conversation: topics list, for an administrator and for a participant', async () => {
    for (const actor of [[], ['--as', 'root'], ['--as', 'alice'], ['--as', 'bob']]) {
      for (const args of [
        ['topics', 'list'],
        ['topics', 'list', '--type', 'recent'],
        ['topics', 'list', '--node', String(node)],
      ]) {
        const listed = await forumctl([...args, ...actor, '--json']);
        expect(listed.code, listed.stderr).to.equal(0);
        const titles = listed.json<{ topics: { title: string }[] }>().topics.map((t) => t.title);
        expect(titles, [...args, ...actor].join(' ')).to.deep.equal(['A forum topic']);
      }
    }
  });

  it('reads no conversation in any state: the reads behind an administrator’s show, a command’s result and a webhook', async () => {
    const { topics, replies } = testEnv().container.get<CliUseCases>(CliUseCases);
    expect(await topics.detailInAnyState(conversation)).to.equal(null);
    expect(await replies.detailInAnyState(message)).to.equal(null);
    // Deleted, a forum post is still found there.
    await testEnv().sql('update topics set deleted_at = now() where id = $1', [topic]);
    expect((await topics.detailInAnyState(topic))?.deleted).to.equal(true);
    const [reply] = await testEnv().sql<{ id: number }>('select id from replies where topic_id = $1', [topic]);
    expect((await replies.detailInAnyState(reply!.id))?.body).to.equal('a forum reply');
  });

  it('search reindex indexes no message, and recount counts none of a user’s', async () => {
    const reindexed = await forumctl(['search', 'reindex', '--json']);
    expect(reindexed.code, reindexed.stderr).to.equal(0);
    expect(reindexed.json()).to.deep.equal({ indexed: { topics: 1, replies: 1 } });
    const indexed = await testEnv().sql('select 1 from search_documents where topic_id = $1', [conversation]);
    expect(indexed).to.have.length(0);

    const recounted = await forumctl(['maintenance', 'recount', '--json']);
    expect(recounted.code, recounted.stderr).to.equal(0);
    const corrected = recounted.json<{ corrected: Record<string, number> }>().corrected;
    expect(
      Object.values(corrected).every((n) => n === 0),
      JSON.stringify(corrected),
    ).to.equal(true);
    for (const [who, topics, replies] of [
      ['alice', 1, 0],
      ['bob', 0, 1],
    ] as const) {
      const shown = await forumctl(['users', 'show', who, '--json']);
      expect(shown.json(), who).to.deep.include({ topics_count: topics, replies_count: replies });
    }
    await expectUntouched();
  });

  it('review spammer deletes the spammer’s forum posts and leaves their messages to the others', async () => {
    await api().post(`/api/v3/topics/${topic}/flag`).set(bob.auth).send({ reason: 'spam' }).expect(200);
    const [item] = await testEnv().sql<{ id: number }>("select id from review_items where target_type = 'Topic'");
    const done = await forumctl(['review', 'spammer', String(item!.id), '--yes']);
    expect(done.code, done.stderr).to.equal(0);
    await api().get(`/api/v3/topics/${topic}`).expect(404);
    const opening = await testEnv().sql<{ deleted_at: Date | null }>('select deleted_at from topics where id = $1', [
      conversation,
    ]);
    expect(opening).to.deep.equal([{ deleted_at: null }]);
    // Bob's message stays; the spammer (alice) is still the conversation's author for bob.
    const shown = await api().get(`/api/v3/messages/${conversation}`).set(bob.auth).expect(200);
    expect(shown.body.message).to.include({ body: 'only for bob' });
    await expectUntouched();
  });
});
