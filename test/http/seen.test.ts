import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { api, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { formsOf } from '../support/oauth-flow.js';
import { checkedApi } from '../support/openapi.js';
import { until } from '../support/wait.js';

/** The row's last visit and its version (xmin changes with every write of the row, even of the same value). */
async function seenRow(userId: number): Promise<{ last_seen_at: Date; xmin: string }> {
  const [row] = await testEnv().sql<{ last_seen_at: Date; xmin: string }>(
    'select last_seen_at, xmin::text as xmin from users where id = $1',
    [userId],
  );
  return row!;
}

/** The user as if last here `days` days ago. */
async function away(userId: number, days: number): Promise<void> {
  await testEnv().sql('update users set last_seen_at = now() - make_interval(days => $2) where id = $1', [userId, days]);
}

/** Whether the last visit is within the last minute: the mark lands just after the response (it is not awaited). */
const seenNow = async (userId: number) => Date.now() - (await seenRow(userId)).last_seen_at.getTime() < 60_000;

describe('seen (contract §17: what digests go by)', () => {
  let alice: TestUser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    await away(alice.id, 10);
  });

  it('an authenticated request marks its user seen; another within the hour writes nothing', async () => {
    await api().get('/api/v3/notifications/unread_count').set(alice.auth).expect(200);
    await until(() => seenNow(alice.id));
    const first = await seenRow(alice.id);

    for (let i = 0; i < 3; i++) await api().get('/api/v3/topics').set(alice.auth).expect(200);
    await api().post('/api/v3/topics/999/follow').set(alice.auth);
    await sleep(300);
    // Not one write of the row: the same version, the same time.
    expect(await seenRow(alice.id)).to.deep.equal(first);
  });

  it('a request whose route never looks its caller up still marks the token’s user', async () => {
    await api().get('/api/v3/nodes').set(alice.auth).expect(200);
    await until(() => seenNow(alice.id));
  });

  it('anonymous requests and dead tokens mark nobody', async () => {
    const before = await seenRow(alice.id);
    await testEnv().sql('update oauth_tokens set revoked_at = now() where user_id = $1', [alice.id]);
    await api().get('/api/v3/nodes').set(alice.auth).expect(200);
    await api().get('/api/v3/topics').set(alice.auth).expect(200);
    await api().get('/api/v3/notifications/unread_count').set(alice.auth).expect(401);
    await api().get('/api/v3/topics').expect(200);
    await sleep(300);
    expect(await seenRow(alice.id)).to.deep.equal(before);
  });

  describe('a sign-in', () => {
    const PASSWORD = 'correct horse battery';
    let bob: number;
    let client: { client_id: string; client_secret: string };

    beforeEach(async () => {
      const created = await forumctl(['users', 'create', 'bob', '--email', 'bob@example.com', '--password', PASSWORD]);
      expect(created.code, created.stderr).to.equal(0);
      client = (await forumctl(['apps', 'create', 'Test client', '--json'])).json();
      bob = (await testEnv().sql<{ id: number }>("select id from users where login = 'bob'"))[0]!.id;
      await away(bob, 10);
    });

    it('the password grant marks the user seen, before the token is answered', async () => {
      await api()
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'password', username: 'bob', password: PASSWORD, ...client })
        .expect(200);
      expect(await seenNow(bob)).to.equal(true);
    });

    it('a refresh marks the user seen; a token an administrator issues with forumctl does not', async () => {
      const issued = await forumctl(['tokens', 'issue', 'bob', '--json']);
      expect(issued.code, issued.stderr).to.equal(0);
      expect(await seenNow(bob)).to.equal(false);
      await api()
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'refresh_token', refresh_token: issued.json<{ refresh_token: string }>().refresh_token, ...client })
        .expect(200);
      expect(await seenNow(bob)).to.equal(true);
    });

    it('the sign-in page marks the user seen', async () => {
      const browser = checkedApi(testEnv().app, { cookies: true });
      const page = await browser.get('/account/sign-in').expect(200);
      const form = formsOf(page.text).find((candidate) => candidate.action.split(/[?#]/)[0] === '/account/sign-in')!;
      await browser
        .post(form.action)
        .type('form')
        .send({ ...form.fields, login: 'bob', password: PASSWORD })
        .expect(303);
      expect(await seenNow(bob)).to.equal(true);
    });
  });
});
