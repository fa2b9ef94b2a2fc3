import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../src/server/app.js';
import { SqlThrottleCounts } from '../../src/adapters/persistence/accounts/throttle-counts.js';
import { WindowLimiter, throttleWindows } from '../../src/adapters/api/window-limiter.js';
import { ResetPassword } from '../../src/application/accounts/password-reset.js';
import { api, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { appDependencies, testEnv } from '../support/env.js';
import { until } from '../support/wait.js';

/** Personal access tokens for scripts and bots (contract §25). */

const PASSWORD = 'correct horse battery';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

interface Made {
  token: { id: number; name: string; scope: string; expires_at: string | null; last_used_at: string | null };
  access_token: string;
}

async function makeToken(auth: { Authorization: string }, body: Record<string, unknown> = {}): Promise<Made> {
  const res = await api()
    .post('/api/v3/users/me/tokens')
    .set(auth)
    .send({ name: 'backup script', scope: 'all', ...body })
    .expect(200);
  return res.body as Made;
}

/** A user made by forumctl with a password, and a token issued by forumctl. */
async function withPassword(login: string): Promise<TestUser> {
  const made = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD, '--json']);
  expect(made.code, made.stderr).to.equal(0);
  const issued = (await forumctl(['tokens', 'issue', login, '--json'])).json<{ access_token: string }>();
  const [row] = await testEnv().sql<{ id: number }>('select id from users where login = $1', [login]);
  return { id: row!.id, login, role: 'member', token: issued.access_token, auth: bearer(issued.access_token) };
}

describe('personal access tokens (contract §25)', () => {
  it('are shown once, work as a bearer for reading and writing, and are listed without the token', async () => {
    const alice = await makeUser('alice');
    const made = await makeToken(alice.auth, { name: 'deploy bot', expires_in_days: 30 });
    expect(made.access_token).to.match(/^fpat_[A-Za-z0-9_-]{64}$/);
    expect(made.token).to.include({ name: 'deploy bot', scope: 'all', last_used_at: null });
    const days = (Date.parse(made.token.expires_at!) - Date.now()) / 86_400_000;
    expect(days).to.be.within(29.9, 30.1);

    const me = await api().get('/api/v3/users/me').set(bearer(made.access_token)).expect(200);
    expect(me.body.user.login).to.equal('alice');
    await api().put('/api/v3/users/me').set(bearer(made.access_token)).send({ name: 'Alice' }).expect(200);

    // The database keeps the digest only; the list shows neither the token nor its digest.
    const digest = createHash('sha256').update(made.access_token).digest('hex');
    const [row] = await testEnv().sql<{ access_digest: string; name: string }>(
      'select access_digest, name from oauth_tokens where id = $1',
      [made.token.id],
    );
    expect(row).to.deep.equal({ access_digest: digest, name: 'deploy bot' });
    const never = await makeToken(alice.auth, { name: 'forever', scope: 'read', expires_in_days: 'none' });
    // "Last used" lands just after the response (it is not awaited).
    await until(async () => {
      const listed = await api().get('/api/v3/users/me/tokens').set(alice.auth).expect(200);
      return listed.body.tokens[1]?.last_used_at !== null;
    });
    const list = await api().get('/api/v3/users/me/tokens').set(alice.auth).expect(200);
    expect(list.text).not.to.include(made.access_token).and.not.include(digest).and.not.include(never.access_token);
    expect(list.body.tokens.map((t: Made['token']) => [t.name, t.scope, t.expires_at])).to.deep.equal([
      ['forever', 'read', null],
      ['deploy bot', 'all', made.token.expires_at],
    ]);
  });

  it('a read token may list but not write nor make tokens; a personal token may not make another', async () => {
    const alice = await makeUser('alice');
    const read = await makeToken(alice.auth, { scope: 'read' });
    await api().get('/api/v3/users/me/tokens').set(bearer(read.access_token)).expect(200);
    const refused = await api().put('/api/v3/users/me').set(bearer(read.access_token)).send({ name: 'x' }).expect(403);
    expect(refused.body.error).to.equal('AccessDenied');
    await api().delete(`/api/v3/users/me/tokens/${read.token.id}`).set(bearer(read.access_token)).expect(403);

    const all = await makeToken(alice.auth);
    const minted = await api()
      .post('/api/v3/users/me/tokens')
      .set(bearer(all.access_token))
      .send({ name: 'another', scope: 'all' })
      .expect(403);
    expect(minted.body.message).to.contain('personal access token cannot create tokens');
  });

  it('a revoked or expired token is 401; another person’s token is 404 to revoke', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const revoked = await makeToken(alice.auth);
    const expired = await makeToken(alice.auth, { expires_in_days: 1 });
    const bobs = await makeToken(bob.auth);

    await api().delete(`/api/v3/users/me/tokens/${bobs.token.id}`).set(alice.auth).expect(404);
    await api().get('/api/v3/users/me').set(bearer(bobs.access_token)).expect(200);

    await api().delete(`/api/v3/users/me/tokens/${revoked.token.id}`).set(alice.auth).expect(200);
    const gone = await api().get('/api/v3/users/me').set(bearer(revoked.access_token)).expect(401);
    expect(gone.body.error).to.equal('Unauthorized');
    await api().delete(`/api/v3/users/me/tokens/${revoked.token.id}`).set(alice.auth).expect(404);

    await testEnv().sql(`update oauth_tokens set expires_at = now() - interval '1 second' where id = $1`, [expired.token.id]);
    await api().get('/api/v3/users/me').set(bearer(expired.access_token)).expect(401);
    const listed = await api().get('/api/v3/users/me/tokens').set(alice.auth).expect(200);
    expect(listed.body.tokens).to.deep.equal([]);
  });

  it('refuses what is not a token’s parameters in the contract’s format, and callers who are not signed in', async () => {
    const alice = await makeUser('alice');
    await api().get('/api/v3/users/me/tokens').expect(401);
    await api().post('/api/v3/users/me/tokens').send({ name: 'x', scope: 'all' }).expect(401);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ scope: 'all' }, 'ParameterInvalid', 'name is missing'],
      [{ name: 'x' }, 'ParameterInvalid', 'scope is missing'],
      [{ name: 'x', scope: 'write' }, 'ParameterInvalid', 'scope must be one of all, read'],
      [{ name: 'x', scope: 'all', expires_in_days: 0 }, 'ParameterInvalid', 'expires_in_days must be between 1 and 365'],
      [{ name: 'x', scope: 'all', expires_in_days: 366 }, 'ParameterInvalid', 'expires_in_days must be between 1 and 365'],
      [{ name: 'x'.repeat(101), scope: 'all' }, 'ParameterInvalid', 'name must be at most 100 characters'],
      [{ name: '   ', scope: 'all' }, 'RecordInvalid', "Validation failed: Name can't be blank"],
    ];
    for (const [body, error, message] of cases) {
      const res = await api().post('/api/v3/users/me/tokens').set(alice.auth).send(body).expect(400);
      expect(res.body, JSON.stringify(body)).to.deep.equal({ error, message });
    }
    await api().delete('/api/v3/users/me/tokens/abc').set(alice.auth).expect(404);
  });

  it('end with a password change, a password reset and the account’s deletion', async () => {
    const alice = await withPassword('alice');
    const first = await makeToken(alice.auth);
    await api()
      .put('/api/v3/users/me/password')
      .set(alice.auth)
      .send({ current_password: PASSWORD, password: 'a second long passphrase' })
      .expect(200);
    await api().get('/api/v3/users/me').set(bearer(first.access_token)).expect(401);

    const second = await makeToken(alice.auth);
    const link = await forumctl(['users', 'reset-link', 'alice']);
    const resetToken = /token=([A-Za-z0-9_-]+)/.exec(link.stdout)![1]!;
    const env = testEnv();
    expect(await env.scope(() => env.container.get(ResetPassword).execute(resetToken, 'a third long passphrase'))).not.to.equal(
      null,
    );
    await api().get('/api/v3/users/me').set(bearer(second.access_token)).expect(401);

    const bob = await withPassword('bob');
    const bobs = await makeToken(bob.auth);
    await api().delete('/api/v3/users/me').set(bob.auth).send({ password: PASSWORD }).expect(200);
    await api().get('/api/v3/users/me').set(bearer(bobs.access_token)).expect(401);
  });

  it('count in the rate limit as their user: two tokens share one budget, and a forged one spends none of it', async () => {
    const alice = await makeUser('alice');
    const one = await makeToken(alice.auth, { name: 'one' });
    const two = await makeToken(alice.auth, { name: 'two' });
    await testEnv().sql('truncate throttle_counts');
    const startedAt = Date.now();
    const limiter = new WindowLimiter(throttleWindows(new SqlThrottleCounts(testEnv().persistence.sql)), () => startedAt);
    const limited = supertest(
      createApp({ ...appDependencies(), rateLimits: { limiter, perToken: 3, perAddress: 100 } }).callback(),
    );

    // Alice's id under a MAC that is not the server's: counted under its own digest, never as alice.
    const user = Buffer.alloc(4);
    user.writeUInt32BE(alice.id);
    const forged = `fpat_${Buffer.concat([randomBytes(28), user, randomBytes(16)]).toString('base64url')}`;
    for (let i = 0; i < 3; i++) await limited.get('/api/v3/users/me').set(bearer(forged)).expect(401);

    await limited.get('/api/v3/users/me').set(bearer(one.access_token)).expect(200);
    await limited.get('/api/v3/users/me').set(bearer(two.access_token)).expect(200);
    const last = await limited.get('/api/v3/users/me').set(bearer(one.access_token)).expect(200);
    expect(last.headers['x-ratelimit-remaining']).to.equal('0');
    const refused = await limited.get('/api/v3/users/me').set(bearer(two.access_token)).expect(429);
    expect(refused.body.message).to.contain('3 requests a minute for the personal tokens of this account');
    // Her sign-in token is a budget of its own.
    await limited.get('/api/v3/users/me').set(alice.auth).expect(200);
  });
});
