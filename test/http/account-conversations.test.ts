import { expect } from 'chai';
import { api, makeGroup, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/**
 * Contract §16c with §24: the account export carries the user's conversations as a part of their own (the forum's
 * topics and replies parts never carry a message), and an account that leaves stays in its conversations, shown as
 * `deleted_<id>`, its messages kept for the others.
 */

const PASSWORD = 'correct horse battery';

/** Starts a conversation as `from`; returns its id. */
async function send(from: TestUser, to: string[], title: string, body: string): Promise<number> {
  const res = await api().post('/api/v3/messages').set(from.auth).send({ to, title, body }).expect(200);
  return res.body.message.id as number;
}

async function answer(from: TestUser, id: number, body: string): Promise<void> {
  await api().post(`/api/v3/messages/${id}/replies`).set(from.auth).send({ body }).expect(200, { ok: 1 });
}

/** A member with a password (leaving asks for it), signed in with a token. */
async function withPassword(login: string): Promise<TestUser> {
  const made = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD]);
  expect(made.code, made.stderr).to.equal(0);
  const [row] = await testEnv().sql<{ id: number }>('select id from users where login = $1', [login]);
  const issued = await testEnv().scope(() => testEnv().useCases.issueToken.execute({ userId: row!.id, clientId: null }));
  return {
    id: row!.id,
    login,
    role: 'member',
    token: issued.access_token,
    auth: { Authorization: `Bearer ${issued.access_token}` },
  };
}

interface ExportedConversation {
  id: number;
  title: string;
  created_at: string;
  participants: string[];
  groups: string[];
  messages: { user: { id: number; login: string }; body: string; created_at: string }[];
}

/** What a conversation's page shows its participant: who takes part, and who wrote each message. */
async function shownTo(reader: TestUser, id: number) {
  const conversation = (await api().get(`/api/v3/messages/${id}`).set(reader.auth).expect(200)).body.message;
  const replies = (await api().get(`/api/v3/messages/${id}/replies`).set(reader.auth).expect(200)).body.replies;
  return {
    author: conversation.user.login as string,
    participants: (conversation.participants as { login: string }[]).map((user) => user.login),
    messages: (replies as { body: string; user: { login: string } }[]).map((reply) => [reply.user.login, reply.body]),
  };
}

describe('accounts and conversations (contract §16c, §24)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  beforeEach(async () => {
    alice = await withPassword('alice');
    bob = await makeUser('bob');
    carol = await makeUser('carol');
  });

  describe('the export', () => {
    it('carries the conversations the user takes part in, with who takes part and the messages they may read', async () => {
      const node = await makeNode('General');
      const topic = await makeTopic(alice, node, 'A forum topic', 'a forum body');
      await makeReply(alice, topic, 'a forum reply');
      const lunch = await send(alice, ['bob'], 'Lunch?', 'Shall we meet at noon?');
      await answer(bob, lunch, 'Noon is fine.');
      await answer(alice, lunch, 'See you.');
      // A message deleted meanwhile is not one she may read: not exported.
      const gone = await api().post(`/api/v3/messages/${lunch}/replies`).set(bob.auth).send({ body: 'never mind' }).expect(200);
      expect(gone.body).to.deep.equal({ ok: 1 });
      await testEnv().sql("update replies set deleted_at = now() where body = 'never mind'");
      // Through a group of hers.
      await makeGroup('team', [alice, carol]);
      const team = await send(bob, ['team'], 'Team plans', 'For the team');
      // One she left is no longer hers, nor what she wrote there; one she was never in, never.
      const left = await send(alice, ['carol'], 'Left behind', 'I will go');
      await api().delete(`/api/v3/messages/${left}/participants/me`).set(alice.auth).expect(200);
      await send(bob, ['carol'], 'Not hers', 'Between bob and carol');

      const doc = (await api().get('/api/v3/users/me/export').set(alice.auth).expect(200)).body;
      expect(doc.topics.map((t: { title: string }) => t.title)).to.deep.equal(['A forum topic']);
      expect(doc.replies.map((r: { body: string }) => r.body)).to.deep.equal(['a forum reply']);
      const conversations = doc.conversations as ExportedConversation[];
      expect(conversations.map((c) => [c.id, c.title, c.participants, c.groups])).to.deep.equal([
        [lunch, 'Lunch?', ['alice', 'bob'], []],
        [team, 'Team plans', ['bob'], ['team']],
      ]);
      expect(conversations[0]!.messages.map((m) => [m.user, m.body])).to.deep.equal([
        [{ id: alice.id, login: 'alice' }, 'Shall we meet at noon?'],
        [{ id: bob.id, login: 'bob' }, 'Noon is fine.'],
        [{ id: alice.id, login: 'alice' }, 'See you.'],
      ]);
      expect(conversations[1]!.messages.map((m) => [m.user.login, m.body])).to.deep.equal([['bob', 'For the team']]);
      for (const message of conversations.flatMap((c) => c.messages)) expect(Date.parse(message.created_at)).not.to.be.NaN;
      const text = JSON.stringify(doc);
      for (const unseen of ['Left behind', 'I will go', 'Not hers', 'never mind']) expect(text).not.to.include(unseen);
    });

    it('carries an empty part for someone in no conversation, and the others’ exports their own', async () => {
      const doc = (await api().get('/api/v3/users/me/export').set(alice.auth).expect(200)).body;
      expect(doc.conversations).to.deep.equal([]);
      const id = await send(bob, ['carol'], 'Hello', 'Hi carol');
      const [[mine], [hers]] = await Promise.all(
        [bob, carol].map(
          async (who) => (await api().get('/api/v3/users/me/export').set(who.auth).expect(200)).body.conversations,
        ),
      );
      expect([mine.id, hers.id]).to.deep.equal([id, id]);
      expect(mine).to.deep.equal(hers);
    });
  });

  describe('leaving', () => {
    it('keeps the account in its conversations as deleted_<id>, its messages and its place there for the others', async () => {
      const id = await send(alice, ['bob', 'carol'], 'Lunch?', 'Shall we meet at noon?');
      await answer(bob, id, 'Noon is fine.');
      await answer(alice, id, 'See you.');
      await api().delete('/api/v3/users/me').set(alice.auth).send({ password: PASSWORD }).expect(200);

      const gone = `deleted_${alice.id}`;
      for (const reader of [bob, carol]) {
        expect(await shownTo(reader, id)).to.deep.equal({
          author: gone,
          participants: [gone, 'bob', 'carol'],
          messages: [
            ['bob', 'Noon is fine.'],
            [gone, 'See you.'],
          ],
        });
      }
      const [row] = await testEnv().sql<{ messages: number; taking_part: number }>(
        `select (select count(*)::int from replies where topic_id = $1 and user_id = $2 and deleted_at is null) as messages,
           (select count(*)::int from conversation_participants where topic_id = $1 and user_id = $2 and left_at is null) as taking_part`,
        [id, alice.id],
      );
      expect(row).to.deep.equal({ messages: 1, taking_part: 1 });
      // The conversation goes on without them.
      await answer(carol, id, 'Shame.');
      expect((await shownTo(bob, id)).messages).to.have.length(3);
    });

    it('forumctl users delete --purge deletes the forum posts and leaves the conversations whole', async () => {
      const node = await makeNode('General');
      const topic = await makeTopic(alice, node, 'buy now');
      const question = await makeTopic(bob, node, 'a real question');
      await makeReply(alice, question, 'buy buy');
      const id = await send(alice, ['bob'], 'Buy?', 'a private offer');
      await answer(bob, id, 'No thanks.');
      await answer(alice, id, 'Last chance.');

      const done = await forumctl(['users', 'delete', 'alice', '--purge', '--reason', 'spam', '--json']);
      expect(done.code, done.stderr).to.equal(0);
      expect(done.json()).to.deep.equal({ login: `deleted_${alice.id}`, purged: { topics: 1, replies: 1 } });
      await api().get(`/api/v3/topics/${topic}`).expect(404);
      expect((await api().get(`/api/v3/topics/${question}`).expect(200)).body.topic.replies_count).to.equal(0);

      const gone = `deleted_${alice.id}`;
      expect(await shownTo(bob, id)).to.deep.equal({
        author: gone,
        participants: [gone, 'bob'],
        messages: [
          ['bob', 'No thanks.'],
          [gone, 'Last chance.'],
        ],
      });
      const [conversation] = await testEnv().sql<{ deleted: boolean; replies_count: number }>(
        'select deleted_at is not null as deleted, replies_count from topics where id = $1',
        [id],
      );
      expect(conversation).to.deep.equal({ deleted: false, replies_count: 2 });
    });
  });
});
