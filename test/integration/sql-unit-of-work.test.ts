import { expect } from 'chai';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { buildContainer } from '../../src/container.js';
import { DomainEvents } from '../../src/application/events.js';
import { SqlUnitOfWork } from '../../src/adapters/persistence/unit-of-work.js';

/** The SQL pool's own transactions (reply create's unit of work): all of the work and its events, or none. */
describe('the SQL unit of work', () => {
  const setup = () => {
    const env = testEnv();
    const container = buildContainer(env.persistence, env.config);
    return {
      env,
      uow: container.get(SqlUnitOfWork),
      events: container.get<DomainEvents>(DomainEvents),
      sql: env.persistence.sql,
    };
  };
  const counts = async () =>
    (
      await testEnv().sql<{ events: number; hits: number }>(
        'select (select count(*)::int from events) as events, (select coalesce(sum(hits), 0)::int from topics) as hits',
      )
    )[0]!;

  it('rolls back every statement and event of work that fails, and commits them together otherwise', async () => {
    const { uow, events, sql } = setup();
    const topicId = await makeTopic(await makeUser('alice'), await makeNode('General'));
    const before = await counts();

    const failed = await uow
      .run(async () => {
        await sql.count('update topics set hits = hits + 1 where id = $1', [topicId]);
        await events.record({ type: 'notification.read', userIds: [1] });
        // Joined, not a transaction of its own: it fails with the rest.
        await uow.run(() => sql.count('update topics set hits = hits + 1 where id = $1', [topicId]));
        throw new Error('the change fails at the end');
      })
      .then(
        () => null,
        (error: Error) => error.message,
      );
    expect(failed).to.equal('the change fails at the end');
    expect(await counts()).to.deep.equal(before);

    let seenOutside: { events: number; hits: number } | null = null;
    await uow.run(async () => {
      await sql.count('update topics set hits = hits + 1 where id = $1', [topicId]);
      await events.record({ type: 'notification.read', userIds: [1] });
      seenOutside = await counts(); // another connection: sees nothing before the commit
    });
    expect(seenOutside).to.deep.equal(before);
    expect(await counts()).to.deep.equal({ events: before.events + 1, hits: before.hits + 1 });
  });

  it('gives a broken connection back to nobody: the next work gets a sound one', async () => {
    const { uow, sql } = setup();
    const failed = await uow
      .run(async () => {
        const [{ pid }] = (await sql.all<{ pid: number }>('select pg_backend_pid() as pid')) as [{ pid: number }];
        await testEnv().sql('select pg_terminate_backend($1)', [pid]);
        await sql.all('select 1');
      })
      .then(
        () => null,
        (error: Error) => error,
      );
    expect(failed).to.be.instanceOf(Error);
    for (let i = 0; i < 12; i++) expect(await uow.run(() => sql.all<{ n: number }>('select 1 as n'))).to.deep.equal([{ n: 1 }]);
  });
});
