import { expect } from 'chai';
import pg from 'pg';
import { makeGroup, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { forumctl } from '../support/cli.js';

/**
 * Each user's groups kept on their row for the readers (`users.group_ids`, contract §23): whatever writes a
 * membership, the arrays say what `group_members` says.
 */
describe("a member's groups on their row (users.group_ids)", () => {
  let alice: TestUser;
  let bob: TestUser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
  });

  const groupIdsOf = async (user: TestUser) =>
    (await testEnv().sql<{ group_ids: number[] }>('select group_ids from users where id = $1', [user.id]))[0]!.group_ids;

  /** Users whose array is not what the memberships say: none, after every change. */
  const drifted = async () =>
    testEnv().sql<{ id: number }>(
      `select u.id from users u
       where u.group_ids <> array(select gm.group_id from group_members gm where gm.user_id = u.id order by gm.group_id)`,
    );

  it('follows joining and leaving through forumctl, in group order, for several users at once', async () => {
    const staff = await makeGroup('staff');
    const team = await makeGroup('team', [alice]);
    expect(await groupIdsOf(alice)).to.deep.equal([team]);
    await forumctl(['groups', 'add', 'staff', 'alice', 'bob']);
    expect(await groupIdsOf(alice)).to.deep.equal([staff, team]);
    expect(await groupIdsOf(bob)).to.deep.equal([staff]);
    await forumctl(['groups', 'remove', 'staff', 'alice']);
    expect(await groupIdsOf(alice)).to.deep.equal([team]);
    expect(await groupIdsOf(bob)).to.deep.equal([staff]);
    expect(await drifted()).to.deep.equal([]);
  });

  it('forgets a deleted group, and a membership moved to another group by an update', async () => {
    await makeGroup('staff', [alice, bob]);
    const team = await makeGroup('team', [alice]);
    await forumctl(['groups', 'delete', 'staff', '--yes']);
    expect(await groupIdsOf(alice)).to.deep.equal([team]);
    expect(await groupIdsOf(bob)).to.deep.equal([]);
    const moved = await makeGroup('moved');
    await testEnv().sql('update group_members set group_id = $1 where group_id = $2', [moved, team]);
    expect(await groupIdsOf(alice)).to.deep.equal([moved]);
    expect(await drifted()).to.deep.equal([]);
  });

  it('lets a user in groups be deleted (their memberships go with them)', async () => {
    await makeGroup('staff', [alice, bob]);
    await testEnv().sql('delete from users where id = $1', [alice.id]);
    expect(await testEnv().sql('select user_id from group_members')).to.deep.equal([{ user_id: bob.id }]);
    expect(await drifted()).to.deep.equal([]);
  });

  it('keeps both of two memberships written at once by two transactions', async () => {
    const staff = await makeGroup('staff');
    const team = await makeGroup('team');
    const pool = new pg.Pool({ connectionString: testEnv().config.databaseUrl!, max: 2 });
    const first = await pool.connect();
    const second = await pool.connect();
    try {
      await first.query('begin');
      await first.query('insert into group_members (group_id, user_id) values ($1, $2)', [staff, alice.id]);
      await second.query('begin');
      // Waits for the first transaction's lock on alice's row, then adds to what it committed.
      const waiting = second.query('insert into group_members (group_id, user_id) values ($1, $2)', [team, alice.id]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await first.query('commit');
      await waiting;
      await second.query('commit');
    } finally {
      first.release();
      second.release();
      await pool.end();
    }
    expect(await groupIdsOf(alice)).to.deep.equal([staff, team]);
    expect(await drifted()).to.deep.equal([]);
  });
});
