import { expect } from 'chai';
import { checkedApi } from '../support/openapi.js';
import { createApp } from '../../src/server/app.js';
import { api, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { appDependencies, testEnv } from '../support/env.js';

interface App {
  client_id: string;
  client_secret: string;
}

async function makeApp(): Promise<App> {
  return (await forumctl(['apps', 'create', 'Test client', '--json'])).json<App>();
}

async function makePasswordUser(login: string, password = 'correct horse battery') {
  const res = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', password, '--json']);
  expect(res.code, res.stderr).to.equal(0);
}

const token = (body: Record<string, string>) => api().post('/oauth/token').type('form').send(body);
const hello = (accessToken: string) => api().get('/api/v3/hello').set('Authorization', `Bearer ${accessToken}`);

describe('OAuth 2.0 over HTTP', () => {
  let app: App;
  beforeEach(async () => {
    app = await makeApp();
    await makePasswordUser('alice');
  });

  it('the whole lifecycle: password grant, /hello, refresh (rotating), revoke', async () => {
    const granted = await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app })
      .expect(200)
      .expect('Cache-Control', 'no-store');
    expect(granted.body).to.have.all.keys('access_token', 'token_type', 'expires_in', 'refresh_token', 'scope', 'created_at');
    expect(granted.body).to.include({ token_type: 'Bearer', expires_in: 86_400, scope: 'all' });
    expect(granted.body.created_at).to.be.closeTo(Date.now() / 1000, 10);
    expect((await hello(granted.body.access_token).expect(200)).body.user.login).to.equal('alice');

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: granted.body.refresh_token, ...app }).expect(200);
    expect(refreshed.body.access_token).to.not.equal(granted.body.access_token);
    expect(refreshed.body.refresh_token).to.not.equal(granted.body.refresh_token);
    await hello(granted.body.access_token).expect(401);
    await hello(refreshed.body.access_token).expect(200);

    const reused = await token({ grant_type: 'refresh_token', refresh_token: granted.body.refresh_token, ...app }).expect(400);
    expect(reused.body.error).to.equal('invalid_grant');

    await api().post('/oauth/revoke').type('form').send({ token: refreshed.body.access_token }).expect(200);
    await hello(refreshed.body.access_token).expect(401);
    const afterRevoke = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, ...app }).expect(
      400,
    );
    expect(afterRevoke.body.error).to.equal('invalid_grant');
  });

  it('accepts the e-mail in any case as the username, a JSON body, and HTTP Basic client authentication', async () => {
    const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
    const res = await api()
      .post('/oauth/token')
      .set('Authorization', basic)
      .send({ grant_type: 'password', username: 'ALICE@Example.com', password: 'correct horse battery' })
      .expect(200);
    await hello(res.body.access_token).expect(200);
  });

  it('ignores an Authorization header that is not Basic (clients send "Bearer null")', async () => {
    const res = await api()
      .post('/oauth/token')
      .set('Authorization', 'Bearer null')
      .send({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app })
      .expect(200);
    expect(res.body.access_token).to.be.a('string');
  });

  it('answers a wrong password or unknown user with 400 invalid_grant', async () => {
    for (const username of ['alice', 'nobody']) {
      const res = await token({ grant_type: 'password', username, password: 'wrong password', ...app }).expect(400);
      expect(res.body).to.include({ error: 'invalid_grant' });
      expect(res.body.error_description).to.be.a('string');
    }
  });

  it('answers a wrong client secret with 401 invalid_client, with a Basic challenge', async () => {
    const res = await token({
      grant_type: 'password',
      username: 'alice',
      password: 'correct horse battery',
      client_id: app.client_id,
      client_secret: 'nope',
    }).expect(401);
    expect(res.body.error).to.equal('invalid_client');
    expect(res.headers['www-authenticate']).to.match(/^Basic/);
    const basic = await api()
      .post('/oauth/token')
      .auth(app.client_id, 'wrong')
      .type('form')
      .send({ grant_type: 'password', username: 'alice', password: 'x' })
      .expect(401);
    expect(basic.body.error).to.equal('invalid_client');
  });

  it('answers an unsupported or missing grant type, and missing parameters, with 400', async () => {
    expect((await token({ grant_type: 'authorization_code_v9', ...app }).expect(400)).body.error).to.equal(
      'unsupported_grant_type',
    );
    expect((await token({ ...app }).expect(400)).body.error).to.equal('invalid_request');
    expect((await token({ grant_type: 'password', username: 'alice', ...app }).expect(400)).body.error).to.equal(
      'invalid_request',
    );
    expect((await token({ grant_type: 'refresh_token', ...app }).expect(400)).body.error).to.equal('invalid_request');
  });

  it('refreshes a token issued by forumctl through any authenticated client, but not a token of another client', async () => {
    const issued = (await forumctl(['tokens', 'issue', 'alice', '--json'])).json<{ refresh_token: string }>();
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, ...app }).expect(200);
    await hello(refreshed.body.access_token).expect(200);
    const other = await makeApp();
    const res = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, ...other }).expect(400);
    expect(res.body.error).to.equal('invalid_grant');
  });

  it('refuses a scope other than "all"', async () => {
    const res = await token({
      grant_type: 'password',
      username: 'alice',
      password: 'correct horse battery',
      scope: 'admin',
      ...app,
    }).expect(400);
    expect(res.body.error).to.equal('invalid_scope');
  });

  it('issues client-credentials tokens with no user and no refresh token: endpoints that need a user answer 401', async () => {
    const res = await token({ grant_type: 'client_credentials', ...app }).expect(200);
    expect(res.body).to.not.have.property('refresh_token');
    const bearer = { Authorization: `Bearer ${res.body.access_token}` };
    await api().get('/api/v3/notifications').set(bearer).expect(401);
    await api().get('/api/v3/hello').set(bearer).expect(401);
    await api().get('/api/v3/topics').set(bearer).expect(200);
  });

  it('refuses an expired token with 401', async () => {
    const granted = await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app }).expect(
      200,
    );
    await testEnv().sql("update oauth_tokens set expires_at = now() - interval '1 second'");
    await hello(granted.body.access_token).expect(401);
  });

  it('revocation answers 200 for unknown tokens too, and revoking a refresh token ends its access token', async () => {
    await api().post('/oauth/revoke').type('form').send({ token: 'never-issued' }).expect(200, {});
    await api().post('/oauth/revoke').send({}).expect(200);
    const granted = await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app }).expect(
      200,
    );
    await api().post('/oauth/revoke').send({ token: granted.body.refresh_token }).expect(200);
    await hello(granted.body.access_token).expect(401);
  });

  it('throttles repeated failures for one account (429, Retry-After), and lets the right password in after the window', async function () {
    this.timeout(20_000);
    for (let i = 0; i < 3; i++) {
      await token({ grant_type: 'password', username: 'alice', password: `wrong ${i}`, ...app }).expect(400);
    }
    const throttled = await token({
      grant_type: 'password',
      username: 'Alice',
      password: 'correct horse battery',
      ...app,
    }).expect(429);
    expect(throttled.body.error).to.equal('TooManyRequests');
    expect(Number(throttled.headers['retry-after'])).to.be.within(1, 2);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app }).expect(200);
  });

  it('counts the account, not its spelling: after the limit by login, the e-mail address is refused too', async () => {
    for (let i = 0; i < 3; i++) {
      await token({ grant_type: 'password', username: 'alice', password: `wrong ${i}`, ...app }).expect(400);
    }
    for (const username of ['alice@example.com', 'ALICE@EXAMPLE.COM', ' Alice ']) {
      const res = await token({ grant_type: 'password', username, password: 'correct horse battery', ...app });
      expect(res.status, username).to.equal(429);
    }
  });

  it('never lets a stranger lock the owner out: the right password from an address without failures works', async () => {
    const proxied = createApp({ ...appDependencies(), trustProxy: true });
    const from = (address: string, body: Record<string, string>) =>
      checkedApi(proxied).post('/oauth/token').set('X-Forwarded-For', address).type('form').send(body);
    for (let i = 0; i < 5; i++) {
      await from('203.0.113.66', { grant_type: 'password', username: 'alice', password: `guess ${i}`, ...app });
    }
    const stranger = await from('203.0.113.66', { grant_type: 'password', username: 'alice', password: 'x', ...app });
    expect(stranger.status).to.equal(429);
    const owner = await from('198.51.100.7', {
      grant_type: 'password',
      username: 'alice@example.com',
      password: 'correct horse battery',
      ...app,
    });
    expect(owner.status).to.equal(200);
  });

  it('throttles guessing of a client secret per client and address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await token({ grant_type: 'client_credentials', client_id: app.client_id, client_secret: `guess ${i}` });
      statuses.push(res.status);
    }
    expect(statuses).to.deep.equal([401, 401, 401, 429, 429]);
    const right = await token({ grant_type: 'client_credentials', ...app });
    expect(right.status, 'the right secret from the same address waits too').to.equal(429);
    expect(Number(right.headers['retry-after'])).to.be.within(1, 2);
  });

  it('revokes the whole family when a rotated refresh token is used again (RFC 9700 §4.14.2)', async () => {
    const first = await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app }).expect(
      200,
    );
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...app }).expect(200);
    const third = await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token, ...app }).expect(200);
    await hello(third.body.access_token).expect(200);
    // Someone replays the first refresh token: refused, and the live pair it led to is revoked with it.
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...app }).expect(400);
    expect(replay.body.error).to.equal('invalid_grant');
    await hello(third.body.access_token).expect(401);
    await token({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token, ...app }).expect(400);
    // Another sign-in of the same user is another family, untouched.
    const other = await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app }).expect(
      200,
    );
    await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...app }).expect(400);
    await hello(other.body.access_token).expect(200);
  });

  it('throttles repeated failures from one address across accounts', async () => {
    for (let i = 0; i < 20; i++) {
      await token({ grant_type: 'password', username: `ghost${i}`, password: 'x', ...app }).expect(400);
    }
    await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app }).expect(429);
  });

  it('lets a valid refresh token through a locked address (issue 31: one NAT, someone guessing), and nothing else', async () => {
    const signedIn = await token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app });
    expect(signedIn.status).to.equal(200);
    const issued = (await forumctl(['tokens', 'issue', 'alice', '--json'])).json<{ refresh_token: string }>();
    // The address's limit (20 in tests), over other accounts: alice's own count stays at zero.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        token({ grant_type: 'password', username: `ghost${i}`, password: 'x', ...app }).expect(400),
      ),
    );
    const password = () => token({ grant_type: 'password', username: 'alice', password: 'correct horse battery', ...app });
    expect((await password()).status, 'the address is locked').to.equal(429);

    // A valid refresh token, of this client or of none (forumctl's), is no guess: refreshed.
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: signedIn.body.refresh_token, ...app });
    expect(refreshed.status, JSON.stringify(refreshed.body)).to.equal(200);
    await hello(refreshed.body.access_token).expect(200);
    const fromCli = await token({ grant_type: 'refresh_token', refresh_token: issued.refresh_token, ...app });
    expect(fromCli.status, JSON.stringify(fromCli.body)).to.equal(200);

    // Guessing still waits: passwords, an unknown refresh token, another client's secret with a live one.
    expect((await password()).status).to.equal(429);
    const unknown = await token({ grant_type: 'refresh_token', refresh_token: 'not a refresh token', ...app });
    expect(unknown.status).to.equal(429);
    const other = await makeApp();
    const elsewhere = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, ...other });
    expect(elsewhere.status, "another client's secret").to.equal(429);
    // A wrong secret with a live refresh token of its client is refused (and counted), never a 200.
    const wrongSecret = await token({
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token,
      client_id: app.client_id,
      client_secret: 'guess',
    });
    expect(wrongSecret.status).to.equal(401);
    // A used refresh token is no pass either (and, replayed, it revokes its family: the live pair above with it).
    const used = await token({ grant_type: 'refresh_token', refresh_token: signedIn.body.refresh_token, ...app });
    expect(used.status).to.equal(429);
    await hello(refreshed.body.access_token).expect(401);
  });

  it('keeps the throttle in the database, where every server process sees it', async () => {
    await token({ grant_type: 'password', username: 'alice', password: 'wrong', ...app }).expect(400);
    const rows = await testEnv().sql<{ key: string; points: number }>(
      'select key, count as points from throttle_counts order by key',
    );
    expect(rows.map((r) => r.key)).to.have.length(2);
    expect(rows.every((r) => r.points === 1)).to.equal(true);
  });

  it('never answers hostile input with a 500', async () => {
    const hostile: unknown[] = [['a'], { a: 1 }, '\u0000', 'x'.repeat(5000), "' or 1=1 --", 42, null];
    for (const value of hostile) {
      for (const field of ['grant_type', 'username', 'password', 'client_id', 'client_secret', 'refresh_token', 'scope']) {
        const body = { grant_type: 'password', username: 'alice', password: 'p', ...app, [field]: value };
        const res = await api().post('/oauth/token').send(body);
        expect(res.status, `${field}=${JSON.stringify(value).slice(0, 40)}`).to.be.below(500);
      }
      expect((await api().post('/oauth/revoke').send({ token: value })).status).to.equal(200);
    }
  });
});

describe('forumctl apps and token maintenance', () => {
  it('apps create shows the secret once; apps list never does', async () => {
    const created = await forumctl(['apps', 'create', 'iOS', '--redirect-uri', 'https://app.example/callback', '--json']);
    expect(created.json()).to.deep.include({ name: 'iOS', public: false, redirect_uris: ['https://app.example/callback'] });
    const app = created.json<App>();
    const [row] = await testEnv().sql<{ secret_digest: string }>('select secret_digest from oauth_clients');
    expect(row!.secret_digest).to.not.equal(app.client_secret);
    const listed = await forumctl(['apps', 'list', '--json']);
    expect(JSON.stringify(listed.json())).to.not.include(app.client_secret);
    expect(listed.json<{ apps: { client_id: string }[] }>().apps[0]!.client_id).to.equal(app.client_id);
    expect((await forumctl(['apps', 'create', 'x', '--redirect-uri', 'not a uri'])).code).to.equal(2);
  });

  it('maintenance purge-tokens deletes revoked and expired tokens, and keeps live ones', async () => {
    const alice = await makeUser('alice');
    const revoked = await makeUser('bob');
    await testEnv().scope(() => testEnv().useCases.revokeToken.execute(revoked.token));
    await testEnv().sql(
      "insert into oauth_tokens (access_digest, user_id, expires_at) values (repeat('e', 64), $1, now() - interval '1 day')",
      [alice.id],
    );
    // Sign-ins that waited for a second factor: one expired, one still waiting for its code.
    for (const [digest, expiry] of [
      ['c', '-1 minute'],
      ['d', '9 minutes'],
    ]) {
      await testEnv().sql(
        "insert into pending_sign_ins (digest, user_id, continue_to, expires_at) values (repeat($1, 64), $2, '/', now() + $3::interval)",
        [digest, alice.id, expiry],
      );
    }
    const res = await forumctl(['maintenance', 'purge-tokens', '--json']);
    expect(res.json()).to.deep.equal({ purged: 2, codes: 0, sessions: 0, pending_sign_ins: 1 });
    await hello(alice.token).expect(200);
    expect(await testEnv().sql("select 1 from pending_sign_ins where digest = repeat('d', 64)")).to.have.length(1);
    expect((await forumctl(['maintenance', 'purge-tokens', '--json'])).json()).to.deep.equal({
      purged: 0,
      codes: 0,
      sessions: 0,
      pending_sign_ins: 0,
    });
  });
});
