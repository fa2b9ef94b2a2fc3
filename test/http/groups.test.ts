import { expect } from 'chai';
import { api, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/** A group as forumctl would make it (there is no builder yet). */
async function group(name: string, options: { title?: string; hidden?: boolean } = {}): Promise<number> {
  const [row] = await testEnv().sql<{ id: number }>('insert into groups (name, title, hidden) values ($1, $2, $3) returning id', [
    name,
    options.title ?? '',
    options.hidden ?? false,
  ]);
  return row!.id;
}

async function member(groupId: number, ...users: TestUser[]): Promise<void> {
  for (const user of users) {
    await testEnv().sql('insert into group_members (group_id, user_id) values ($1, $2)', [groupId, user.id]);
  }
}

describe('groups over HTTP (contract §23)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let root: TestUser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    root = await makeUser('root', 'admin');
  });

  describe('GET /groups/:name', () => {
    it('shows a public group by its name in any case, with how many members it has', async () => {
      const rubyists = await group('Rubyists', { title: 'Ruby people' });
      await member(rubyists, alice, bob);
      const expected = { group: { name: 'Rubyists', title: 'Ruby people', members_count: 2 } };
      for (const name of ['Rubyists', 'rubyists', 'RUBYISTS']) {
        await api().get(`/api/v3/groups/${name}`).expect(200, expected);
        await api().get(`/api/v3/groups/${name}.json`).set(alice.auth).expect(200, expected);
      }
    });

    it('counts no members as 0, and reads a bad token as anonymous', async () => {
      await group('empty.set');
      await api()
        .get('/api/v3/groups/empty.set')
        .set({ Authorization: 'Bearer nope' })
        .expect(200, { group: { name: 'empty.set', title: '', members_count: 0 } });
    });

    it('a hidden group is 404 to anonymous, to a member of it and to others; an administrator sees it', async () => {
      const staff = await group('staff-room', { title: 'Staff', hidden: true });
      await member(staff, alice);
      await api().get('/api/v3/groups/staff-room').expect(404, { error: 'ResourceNotFound' });
      await api().get('/api/v3/groups/staff-room').set(alice.auth).expect(404, { error: 'ResourceNotFound' });
      await api().get('/api/v3/groups/staff-room').set(bob.auth).expect(404, { error: 'ResourceNotFound' });
      await api()
        .get('/api/v3/groups/Staff-Room')
        .set(root.auth)
        .expect(200, { group: { name: 'staff-room', title: 'Staff', members_count: 1 } });
    });

    it('an unknown name is 404', async () => {
      await group('rubyists');
      await api().get('/api/v3/groups/pythonistas').expect(404, { error: 'ResourceNotFound' });
      await api().get('/api/v3/groups/pythonistas').set(root.auth).expect(404, { error: 'ResourceNotFound' });
    });

    it('a name that cannot be a group’s is simply 404', async () => {
      await group('rubyists');
      for (const name of ['ruby%20ists', 'rubyists%27', '%D0%B3%D1%80%D1%83%D0%BF%D0%BF%D0%B0', 'r'.repeat(41), 'ruby%2Fists']) {
        await api().get(`/api/v3/groups/${name}`).expect(404, { error: 'ResourceNotFound' });
        await api().get(`/api/v3/groups/${name}`).set(root.auth).expect(404, { error: 'ResourceNotFound' });
      }
    });
  });

  describe('the user detail’s groups', () => {
    it('lists the names of the user’s groups that are not hidden, by name, to everyone', async () => {
      await member(await group('zebra'), alice);
      await member(await group('Apes'), alice);
      await member(await group('hidden-one', { hidden: true }), alice);
      await member(await group('monkeys'), alice);
      await member(await group('bobs-only'), bob);

      for (const caller of [{}, alice.auth, root.auth]) {
        const res = await api().get('/api/v3/users/alice').set(caller).expect(200);
        expect(res.body.user.groups).to.deep.equal(['Apes', 'monkeys', 'zebra']);
      }
      const me = await api().get('/api/v3/users/me').set(alice.auth).expect(200);
      expect(me.body.user.groups).to.deep.equal(['Apes', 'monkeys', 'zebra']);
    });

    it('is empty when the user belongs to no public group', async () => {
      await member(await group('secret', { hidden: true }), bob);
      expect((await api().get('/api/v3/users/alice').expect(200)).body.user.groups).to.deep.equal([]);
      expect((await api().get('/api/v3/users/bob').expect(200)).body.user.groups).to.deep.equal([]);
    });
  });
});
