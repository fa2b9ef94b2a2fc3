import { expect } from 'chai';
import type { ActingUser } from '../../src/application/actor.js';
import { ConfirmTotpEnrolment, StartTotpEnrolment } from '../../src/application/second-factors/enrolment.js';
import { api, makeNode, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';
import { checkedApi } from '../support/openapi.js';
import { stepAt, totpCode } from '../support/totp.js';

/**
 * Second factors over the API (contract §25): the password grant's `otp`, codes used once, failures counted with the
 * account's failed sign-ins, recovery codes, REQUIRE_2FA=admins. Codes are computed by the tests' own RFC 6238.
 */

const PASSWORD = 'correct horse battery';

interface Client {
  client_id: string;
  client_secret: string;
}

/** Sets up an authenticator for `user` as the settings page does, confirmed with the code of step `step`. */
async function enrol(user: ActingUser, step = stepAt(Date.now())): Promise<{ secret: string; recoveryCodes: string[] }> {
  const env = testEnv();
  const { secret } = await env.scope(() => env.container.get(StartTotpEnrolment).execute(user));
  const { recoveryCodes } = await env.scope(() =>
    env.container.get(ConfirmTotpEnrolment).execute(user, { code: totpCode(secret, step) }),
  );
  return { secret, recoveryCodes: recoveryCodes ?? [] };
}

async function makeAlice(): Promise<ActingUser> {
  const made = await forumctl(['users', 'create', 'alice', '--email', 'alice@example.com', '--password', PASSWORD, '--json']);
  expect(made.code, made.stderr).to.equal(0);
  const { id } = made.json<{ id: number }>();
  return { id, login: 'alice', role: 'member' };
}

describe('Second factors over the API (contract §25)', () => {
  let client: Client;
  const grant = (extra: Record<string, string> = {}) =>
    api()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'password', username: 'alice', password: PASSWORD, ...client, ...extra });

  beforeEach(async () => {
    client = (await forumctl(['apps', 'create', 'Test client', '--json'])).json<Client>();
  });

  it('asks for the second factor after the right password only, takes a right code once, and keeps the secret sealed', async () => {
    const alice = await makeAlice();
    const now = stepAt(Date.now());
    const { secret } = await enrol(alice, now);

    const missing = await grant().expect(400);
    expect(missing.body).to.deep.equal({ error: 'invalid_grant', error_description: 'second factor required' });
    const wrongPassword = await grant({ password: 'wrong password' }).expect(400);
    expect(wrongPassword.body.error).to.equal('invalid_grant');
    expect(wrongPassword.body.error_description).to.not.include('second factor');

    // The step after the one enrolment accepted: within the window, never used.
    const code = totpCode(secret, now + 1);
    const token = await grant({ otp: code }).expect(200);
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${token.body.access_token}`).expect(200);
    const replayed = await grant({ otp: code }).expect(400);
    expect(replayed.body).to.deep.include({ error: 'invalid_grant' });
    // An earlier step than one accepted is refused too (a code seen over a shoulder).
    await grant({ otp: totpCode(secret, now) }).expect(400);

    const [row] = await testEnv().sql<{ sealed_secret: string }>('select sealed_secret from user_totp where user_id = $1', [
      alice.id,
    ]);
    expect(row!.sealed_secret).to.match(/^v1\./).and.not.include(secret);
  });

  it('counts wrong codes with the account’s failed sign-ins: guessing codes ends in 429', async () => {
    const alice = await makeAlice();
    const { secret } = await enrol(alice);
    // The test configuration allows 3 failures per account and address.
    for (let i = 0; i < 3; i += 1) await grant({ otp: '000000' }).expect(400);
    const locked = await grant({ otp: totpCode(secret, stepAt(Date.now()) + 1) }).expect(429);
    expect(locked.headers['retry-after']).to.match(/^\d+$/);
  });

  it('takes a recovery code once, and not twice', async () => {
    const alice = await makeAlice();
    const { recoveryCodes } = await enrol(alice);
    expect(recoveryCodes).to.have.length(10);
    expect(new Set(recoveryCodes).size).to.equal(10);
    const [first] = recoveryCodes;
    await grant({ otp: first!.toUpperCase() }).expect(200);
    await grant({ otp: first! }).expect(400);
    const stored = await testEnv().sql<{ digest: string; used: boolean }>(
      'select digest, used_at is not null as used from recovery_codes where user_id = $1',
      [alice.id],
    );
    expect(stored.filter((code) => code.used)).to.have.length(1);
    expect(stored.map((code) => code.digest)).to.not.include(first!.replace('-', ''));
  });

  it('REQUIRE_2FA=admins refuses an administrator without a second factor until they set one up', async () => {
    const { app } = configuredWith({ requireSecondFactor: 'admins' });
    const strict = checkedApi(app);
    const root = await makeUser('root', 'admin');
    const refused = await strict.get('/api/v3/admin/audit').set(root.auth).expect(403);
    expect(refused.body.message).to.match(/two-factor/);
    // Without the rule, the same administrator acts.
    await api().get('/api/v3/admin/audit').set(root.auth).expect(200);

    // Reads too: a topic held for review is an administrator's to see, not theirs while held back (its statement
    // is given the caller the rule made, rather than looking the token up by itself).
    const author = await makeUser('author');
    const node = await makeNode('Elsewhere');
    const held = await makeTopic(author, node, 'Held for review');
    await testEnv().sql("update topics set visibility = 'held' where id = $1", [held]);
    await strict.get(`/api/v3/topics/${held}`).set(root.auth).expect(404);
    await strict.get(`/api/v3/topics/${held}/replies`).set(root.auth).expect(404);
    await api().get(`/api/v3/topics/${held}`).set(root.auth).expect(200);

    await enrol(root);
    await strict.get('/api/v3/admin/audit').set(root.auth).expect(200);
    await strict.get(`/api/v3/topics/${held}`).set(root.auth).expect(200);
  });
});
