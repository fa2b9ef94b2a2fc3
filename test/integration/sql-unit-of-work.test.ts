import { expect } from 'chai';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { buildContainer } from '../../src/container.js';
import { DomainEvents } from '../../src/application/events.js';
import { UnitOfWork } from '../../src/application/ports.js';
import { SearchIndex } from '../../src/application/search/ports.js';
import { ReplyRepository } from '../../src/domain/replies/reply-repository.js';
import { Reply } from '../../src/domain/replies/reply.js';
import { OneStatementUnitOfWork } from '../../src/adapters/persistence/database/unit-of-work.js';

/**
 * The rows a unit of work stages (new replies with their counters, the outbox, search documents, notifications)
 * are written at its end in one statement: with a transaction's commit, or, for a unit of work whose every write
 * is staged (reply create's), as that one statement alone. Both land, or neither.
 */
describe('staged rows and the one-statement unit of work', () => {
  const setup = () => {
    const env = testEnv();
    const container = buildContainer(env.persistence, env.config);
    return {
      uow: container.get(OneStatementUnitOfWork),
      transaction: container.get<UnitOfWork>(UnitOfWork),
      events: container.get<DomainEvents>(DomainEvents),
      replies: container.get<ReplyRepository>(ReplyRepository),
      index: container.get<SearchIndex>(SearchIndex),
    };
  };
  const counts = async () =>
    (
      await testEnv().sql<{ events: number; replies: number; counted: number }>(
        `select (select count(*)::int from events) as events, (select count(*)::int from replies) as replies,
                (select coalesce(sum(replies_count), 0)::int from topics) as counted`,
      )
    )[0]!;
  const fails = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: Error) => error.message,
    );

  it('writes nothing until the end of the work, then everything it staged in one statement', async () => {
    const { uow, events, replies } = setup();
    const alice = await makeUser('alice');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const before = await counts();
    const reply = Reply.write({ topicId, userId: alice.id, body: 'hi', bodyHtml: '<p>hi</p>' }, new Date());
    await uow.run(async () => {
      await replies.add(reply);
      await events.record({ type: 'notification.read', userIds: [1] });
      // Staged, not written: another connection sees nothing yet.
      expect(await counts()).to.deep.equal(before);
    });
    // The row, not its counts: counters follow the reply's event (counters.ts), which this work did not record.
    expect(await counts()).to.deep.equal({ events: before.events + 1, replies: before.replies + 1, counted: before.counted });
    // A reply staged without an id learns the one it was written with.
    const [row] = await testEnv().sql<{ id: number }>('select id from replies order by id desc limit 1');
    expect(reply.id).to.equal(row!.id);
  });

  it('writes nothing for work that fails', async () => {
    const { uow, events, replies } = setup();
    const alice = await makeUser('alice');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const before = await counts();
    const failed = uow.run(async () => {
      await replies.add(Reply.write({ topicId, userId: alice.id, body: 'hi', bodyHtml: '<p>hi</p>' }, new Date()));
      await events.record({ type: 'notification.read', userIds: [1] });
      throw new Error('the change fails at the end');
    });
    expect(await fails(failed)).to.equal('the change fails at the end');
    expect(await counts()).to.deep.equal(before);
  });

  it('writes nothing when the statement fails: the reply, its counters and its events go together or not at all', async () => {
    const { uow, events, replies } = setup();
    const alice = await makeUser('alice');
    const before = await counts();
    // A reply to a topic that does not exist breaks the statement's foreign key, after its events were staged.
    const broken = uow.run(async () => {
      await events.record({ type: 'notification.read', userIds: [1] });
      await replies.add(Reply.write({ topicId: 999_999, userId: alice.id, body: 'hi', bodyHtml: '<p>hi</p>' }, new Date()));
    });
    expect(await fails(broken)).to.match(/foreign key/);
    expect(await counts()).to.deep.equal(before);
  });

  it('joins a transaction it runs in: its rows commit or roll back with it', async () => {
    const { uow, transaction, events } = setup();
    const before = await counts();
    const inside = (fail: boolean) =>
      transaction.run(async () => {
        await uow.run(() => events.record({ type: 'notification.read', userIds: [1] }));
        await events.record({ type: 'notification.read', userIds: [2] });
        if (fail) throw new Error('the transaction fails after the statement');
      });
    expect(await fails(inside(true))).to.equal('the transaction fails after the statement');
    expect(await counts()).to.deep.equal(before);
    await inside(false);
    expect((await counts()).events).to.equal(before.events + 2);
  });

  it('writes the last version of a document staged twice in one unit of work', async () => {
    const { transaction, index } = setup();
    const topicId = await makeTopic(await makeUser('alice'), await makeNode('General'));
    const at = new Date();
    const version = (body: string) => ({
      topicId,
      replyId: null,
      title: 'Title',
      body,
      text: body,
      createdAt: at,
      sourceUpdatedAt: at,
    });
    await transaction.run(async () => {
      await index.put([version('first words')]);
      await index.put([version('second words')]);
    });
    const [row] = await testEnv().sql<{ words: string; text: string }>(
      `select vector::text as words, text from search_documents where topic_id = $1 and reply_id is null`,
      [topicId],
    );
    expect(row!.words).to.contain("'second'").and.not.contain("'first'");
    expect(row!.text).to.equal('second words');
  });
});
