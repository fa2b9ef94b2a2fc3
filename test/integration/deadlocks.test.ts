import { expect } from 'chai';
import { api, makeNode, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { ConflictRetries } from '../../src/adapters/persistence/database/unit-of-work.js';
import type { Sql } from '../../src/adapters/persistence/database/sql.js';
import { UnitOfWork } from '../../src/application/ports.js';
import { SqlRunner } from '../../src/container/bind.js';

/** PostgreSQL's code for a transaction aborted by its deadlock detector. */
const DEADLOCK = '40P01';

/**
 * Issue 30: writes that notify and mention the same users, at once, naming them in opposite orders. Each locks
 * rows of several users (their unread counts, the writer's counters) and of a topic or node; two that took them
 * in different orders deadlocked, and PostgreSQL aborted one after its deadlock timeout (a 500). Every writer now
 * takes them in one order, and a unit of work aborted anyway is tried again: so it is the deadlocks themselves that
 * are counted (the unit of work's conflict count), not only the answers.
 */
describe('concurrent writes that notify the same users', () => {
  it('never fail, whatever order they name the users in, and leave every count true', async function () {
    this.timeout(180_000);
    const env = testEnv();
    const users: TestUser[] = [];
    for (let i = 0; i < 8; i++) users.push(await makeUser(`user${i}`));
    const node = await makeNode('General');
    const topics: number[] = [];
    for (let i = 0; i < 4; i++) topics.push(await makeTopic(users[i]!, node, `Topic ${i}`));
    // Everyone follows every topic and every other user: each write notifies nearly everyone.
    for (const user of users) {
      for (const topicId of topics) await api().post(`/api/v3/topics/${topicId}/follow`).set(user.auth).expect(200);
    }
    const conflicts = env.container.get(ConflictRetries);
    const deadlocksBefore = conflicts.count(DEADLOCK);
    const failures: string[] = [];
    const check = (what: string, res: { status: number; body: unknown }) => {
      if (res.status !== 200) failures.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    };
    // Each user on three connections at once: replies, topics and follows, naming the others in opposite orders.
    await Promise.all(
      [...users, ...users, ...users].map(async (author, worker) => {
        for (let n = 0; n < 8; n++) {
          const others = users.filter((user) => user !== author);
          const named = ((worker + n) % 2 === 0 ? others : [...others].reverse()).slice(0, 4);
          const mentions = named.map((user) => `@${user.login}`).join(' ');
          const topicId = topics[(worker + n) % topics.length]!;
          check(
            'reply',
            await api()
              .post(`/api/v3/topics/${topicId}/replies`)
              .set(author.auth)
              .send({ body: `hi ${mentions}` }),
          );
          if (n % 3 === 0) {
            const topic = { title: 'Mentions', body: mentions, node_id: node };
            check('topic', await api().post('/api/v3/topics').set(author.auth).send(topic));
          }
          if (n % 4 === 1) check('follow', await api().post(`/api/v3/users/${named[0]!.login}/follow`).set(author.auth));
          check('show', await api().get(`/api/v3/topics/${topicId}`).set(author.auth));
        }
      }),
    );
    expect(failures).to.deep.equal([]);
    // Not one deadlock: the unit of work would have tried the write again and hidden it, so count them.
    expect(conflicts.count(DEADLOCK) - deadlocksBefore, `deadlocks, the last where: ${conflicts.recent().join(' | ')}`).to.equal(
      0,
    );
    const [counts] = await env.sql<{ replies: number; written: number; unread: number; kept: number }>(
      `select (select sum(replies_count)::int from topics) as replies,
              (select count(*)::int from replies where action is null and deleted_at is null) as written,
              (select coalesce(sum(count), 0)::int from notification_unread_counts) as unread,
              (select count(*)::int from notifications where read_at is null) as kept`,
    );
    expect(counts!.replies).to.equal(192);
    expect(counts!.written).to.equal(192);
    expect(counts!.unread).to.equal(counts!.kept);
  });

  it('a unit of work PostgreSQL aborts as a deadlock is tried again, and the conflict says where it waited', async () => {
    const env = testEnv();
    const [first, second] = [await makeNode('First'), await makeNode('Second')];
    const uow = env.container.get<UnitOfWork>(UnitOfWork);
    const sql = env.container.get<Sql>(SqlRunner);
    const conflicts = env.container.get(ConflictRetries);
    const deadlocksBefore = conflicts.count(DEADLOCK);
    // Two units of work lock the same two rows crosswise, each waiting on its first try until the other holds its first.
    let holding = 0;
    let bothHold!: () => void;
    const crossed = new Promise<void>((resolve) => (bothHold = resolve));
    const tries = [0, 0];
    const count = (id: number) => sql.all('update nodes set topics_count = topics_count + 1 where id = $1', [id]);
    const crosswise = (worker: number, ids: [number, number]) =>
      env.scope(() =>
        uow.run(async () => {
          tries[worker]! += 1;
          await count(ids[0]);
          if (tries[worker] === 1 && ++holding === 2) bothHold();
          if (tries[worker] === 1) await crossed;
          await count(ids[1]);
        }),
      );
    await Promise.all([crosswise(0, [first, second]), crosswise(1, [second, first])]);
    // PostgreSQL aborted one of them; it ran again, and both units of work landed whole.
    expect(conflicts.count(DEADLOCK) - deadlocksBefore).to.equal(1);
    expect([...tries].sort()).to.deep.equal([1, 2]);
    expect(conflicts.recent().at(-1)).to.match(/^40P01: while (updating|locking) tuple \(\d+,\d+\) in relation "nodes"/);
    const counted = await env.sql<{ topics_count: number }>('select topics_count from nodes where id = any($1) order by id', [
      [first, second],
    ]);
    expect(counted.map((row) => row.topics_count)).to.deep.equal([2, 2]);
  });
});
