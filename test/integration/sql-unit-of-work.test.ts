import { expect } from 'chai';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { buildContainer } from '../../src/container.js';
import { DomainEvents } from '../../src/application/events.js';
import { UnitOfWork } from '../../src/application/ports.js';
import { SearchIndex } from '../../src/application/search/ports.js';
import { OneStatementUnitOfWork } from '../../src/adapters/persistence/unit-of-work.js';
import { StagedRows, stagedRows } from '../../src/adapters/persistence/staged-rows.js';

/**
 * The rows events stage (outbox, search documents) and the one-statement unit of work (reply create's): the
 * change and its rows in one atomic statement, or none of them.
 */
describe('staged rows and the one-statement unit of work', () => {
  const setup = () => {
    const env = testEnv();
    const container = buildContainer(env.persistence, env.config);
    return {
      uow: container.get(OneStatementUnitOfWork),
      transaction: container.get<UnitOfWork>(UnitOfWork),
      events: container.get<DomainEvents>(DomainEvents),
      staged: container.get(StagedRows),
      index: container.get<SearchIndex>(SearchIndex),
      sql: env.persistence.sql,
    };
  };
  const counts = async () =>
    (
      await testEnv().sql<{ events: number; hits: number }>(
        'select (select count(*)::int from events) as events, (select coalesce(sum(hits), 0)::int from topics) as hits',
      )
    )[0]!;
  const fails = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: Error) => error.message,
    );
  // A change of one statement that carries the staged rows and says how many events it wrote; it divides by zero
  // when asked to fail.
  const touch = `with touched as (update topics set hits = hits + 1 where id = $1 returning id), ${stagedRows(3)}
    select (select count(*) from queued) as queued, (select count(*)::int from stored) as events, 1 / $2::int as ok
    from touched`;

  it('writes the staged rows with the statement that takes them: both land, or neither', async () => {
    const { uow, events, staged, sql } = setup();
    const topicId = await makeTopic(await makeUser('alice'), await makeNode('General'));
    const before = await counts();
    const change = (divisor: number) =>
      uow.run(async () => {
        await events.record({ type: 'notification.read', userIds: [1] });
        await events.record({ type: 'notification.read', userIds: [2] });
        return sql.one<{ events: number }>(touch, [topicId, divisor, ...staged.take()]);
      });

    expect(await fails(change(0))).to.equal('division by zero');
    expect(await counts()).to.deep.equal(before);

    // The statement itself wrote both events.
    expect(await change(1)).to.include({ events: 2 });
    expect(await counts()).to.deep.equal({ events: before.events + 2, hits: before.hits + 1 });
    // Taken once: nothing was left for the end of the work to write again.
    expect(await testEnv().sql('select payload from events order by id desc limit 2')).to.deep.equal([
      { payload: { userIds: [2] } },
      { payload: { userIds: [1] } },
    ]);
  });

  it('writes at the end of the work what no statement took, and nothing for work that fails', async () => {
    const { uow, events } = setup();
    const before = await counts();
    const failed = uow.run(async () => {
      await events.record({ type: 'notification.read', userIds: [1] });
      throw new Error('the change fails at the end');
    });
    expect(await fails(failed)).to.equal('the change fails at the end');
    expect(await counts()).to.deep.equal(before);

    await uow.run(() => events.record({ type: 'notification.read', userIds: [1] }));
    expect((await counts()).events).to.equal(before.events + 1);
  });

  it('refuses rows staged after the statement that took the rest: they could not be atomic with it', async () => {
    const { uow, transaction, events, staged, sql } = setup();
    const topicId = await makeTopic(await makeUser('alice'), await makeNode('General'));
    const before = await counts();
    const late = (unit: { run<T>(work: () => Promise<T>): Promise<T> }) =>
      unit.run(async () => {
        await events.record({ type: 'notification.read', userIds: [1] });
        await sql.all(touch, [topicId, 1, ...staged.take()]);
        await events.record({ type: 'notification.read', userIds: [2] });
      });
    expect(await fails(late(uow))).to.match(/staged after the statement/);
    // The statement had landed with its own rows; the late event was refused, not written apart.
    expect(await counts()).to.deep.equal({ events: before.events + 1, hits: before.hits + 1 });
    // In a transaction the late rows still commit with the rest.
    await late(transaction);
    expect(await counts()).to.deep.equal({ events: before.events + 3, hits: before.hits + 2 });
  });

  it('joins a transaction it runs in: its rows commit or roll back with it', async () => {
    const { uow, transaction, events, staged, sql } = setup();
    const topicId = await makeTopic(await makeUser('alice'), await makeNode('General'));
    const before = await counts();
    const inside = (fail: boolean) =>
      transaction.run(async () => {
        await uow.run(async () => {
          await events.record({ type: 'notification.read', userIds: [1] });
          await sql.all(touch, [topicId, 1, ...staged.take()]);
        });
        await events.record({ type: 'notification.read', userIds: [2] });
        if (fail) throw new Error('the transaction fails after the statement');
      });
    expect(await fails(inside(true))).to.equal('the transaction fails after the statement');
    expect(await counts()).to.deep.equal(before);
    await inside(false);
    expect(await counts()).to.deep.equal({ events: before.events + 2, hits: before.hits + 1 });
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
