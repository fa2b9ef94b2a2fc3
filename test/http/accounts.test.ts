import { expect } from 'chai';
import type Koa from 'koa';
import { checkedApi } from '../support/openapi.js';
import { api, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';
import { MailTokenKeys } from '../../src/application/ports.js';
import { ConfirmAddress } from '../../src/application/accounts/verification.js';
import { ResetPassword } from '../../src/application/accounts/password-reset.js';
import { RequestEmailChange } from '../../src/application/accounts/profile.js';
import { ApproveAccount } from '../../src/application/accounts/approval.js';
import type { Container } from 'inversify';

/** Joining over the API (contract §16b): sign-up, the verification link, a forgotten password, resending. */

const PASSWORD = 'correct horse battery';

interface TokenRow {
  id: string;
  user_id: number;
  purpose: string;
  digest: string;
  used_at: Date | null;
}

async function tokenRows(login?: string): Promise<TokenRow[]> {
  return testEnv().sql<TokenRow>(
    `select t.id, t.user_id, t.purpose, t.digest, t.used_at from account_tokens t join users u on u.id = t.user_id
     where $1::text is null or u.login = $1 order by t.created_at, t.id`,
    [login ?? null],
  );
}

/** The token a mail's link carries, derived as the mail writer derives it. */
function linkToken(row: TokenRow, container: Container = testEnv().container): string {
  return container.get<MailTokenKeys>(MailTokenKeys).tokenFor(row.id);
}

/** The last event before this test: the events table outlives the reset between tests (other files record some). */
let eventsBefore = 0;

/** The events of this type recorded by this test. */
async function events(type: string): Promise<Record<string, unknown>[]> {
  const rows = await testEnv().sql<{ payload: Record<string, unknown> }>(
    'select payload from events where type = $1 and id > $2 order by id',
    [type, eventsBefore],
  );
  return rows.map((row) => row.payload);
}

async function appClient(): Promise<{ client_id: string; client_secret: string }> {
  return (await forumctl(['apps', 'create', 'Test client', '--json'])).json();
}

function passwordGrant(client: { client_id: string; client_secret: string }, username: string, password = PASSWORD, app?: Koa) {
  return (app ? checkedApi(app) : api())
    .post('/oauth/token')
    .type('form')
    .send({ grant_type: 'password', username, password, ...client });
}

const signUp = (body: Record<string, unknown>, app?: Koa) => (app ? checkedApi(app) : api()).post('/api/v3/users').send(body);

describe('accounts: joining over the API (contract §16b)', () => {
  beforeEach(async () => {
    const [row] = await testEnv().sql<{ id: string | null }>('select max(id) as id from events');
    eventsBefore = Number(row?.id ?? 0);
  });

  it('signs up an unverified account, mails a verification link, and lets it in once the link is confirmed', async () => {
    const res = await signUp({ login: 'alice', email: 'Alice@Example.com', password: PASSWORD, name: 'Alice' })
      .set('Accept-Language', 'zh-CN,zh;q=0.9,en;q=0.8')
      .expect(200);
    expect(res.body.meta).to.deep.equal({ state: 'unverified' });
    expect(res.body.user).to.include({ login: 'alice', name: 'Alice', email: 'Alice@Example.com', level: 'member' });
    const [user] = await testEnv().sql<{ id: number; state: string; locale: string; password_hash: string }>(
      "select id, state, locale, password_hash from users where login = 'alice'",
    );
    expect(user).to.include({ id: res.body.user.id, state: 'unverified', locale: 'zh-CN' });
    expect(user!.password_hash).to.match(/^\$argon2id\$/);

    const [row] = await tokenRows('alice');
    expect(row).to.include({ purpose: 'verify', used_at: null });
    const token = linkToken(row!);
    expect(row!.digest).not.to.include(token);
    expect(JSON.stringify(await testEnv().sql('select * from account_tokens'))).not.to.include(token);
    expect(await events('account.token_issued')).to.deep.equal([{ userId: user!.id, tokenId: row!.id, purpose: 'verify' }]);

    const client = await appClient();
    const refused = await passwordGrant(client, 'alice').expect(400);
    expect(refused.body.error).to.equal('invalid_grant');
    expect(refused.body.error_description).to.include('not confirmed');
    // The wrong password says nothing about the account's state.
    const wrong = await passwordGrant(client, 'alice', 'not the password').expect(400);
    expect(wrong.body.error_description ?? '').not.to.include('confirmed');

    const confirm = testEnv().container.get(ConfirmAddress);
    const confirmed = await testEnv().scope(() => confirm.execute(token));
    expect(confirmed).to.deep.include({ state: 'active' });
    expect(await testEnv().scope(() => confirm.execute(token)), 'a token is spent once').to.equal(null);
    const granted = await passwordGrant(client, 'alice').expect(200);
    expect(granted.body.access_token).to.be.a('string');
  });

  it('answers an e-mail already registered exactly like a new sign-up, and tells its owner, nobody else', async () => {
    await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
    const fresh = await signUp({ login: 'dave', email: 'dave@example.com', password: PASSWORD }).expect(200);
    const repeated = await signUp({ login: 'mallory', email: 'CAROL@example.com', password: PASSWORD }).expect(200);
    const after = await signUp({ login: 'erin', email: 'erin@example.com', password: PASSWORD }).expect(200);

    const shape = (body: Record<string, unknown>) => JSON.stringify(body, (_k, v) => (typeof v === 'string' ? 's' : v));
    expect(shape(repeated.body).replace(/"id":\d+/, '')).to.equal(shape(fresh.body).replace(/"id":\d+/, ''));
    expect(repeated.body.user).to.include({ login: 'mallory', email: 'CAROL@example.com' });
    // Its id is drawn as a new account's: the next real one comes after it.
    expect(repeated.body.user.id).to.be.above(fresh.body.user.id).and.below(after.body.user.id);
    expect(await testEnv().sql("select 1 from users where login = 'mallory'")).to.have.length(0);
    const [carol] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
    expect(await events('account.sign_up_repeated')).to.deep.equal([{ userId: carol!.id }]);
    expect((await tokenRows()).map((row) => row.purpose)).to.deep.equal(['verify', 'verify']);
  });

  it('refuses a taken login, bad fields and weak passwords with a clear 400, and writes nothing', async () => {
    await signUp({ login: 'alice', email: 'alice@example.com', password: PASSWORD }).expect(200);
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ login: 'ALICE', email: 'new@example.com', password: PASSWORD }, 'RecordInvalid', /Login has already been taken/],
      [{ email: 'x@example.com', password: PASSWORD }, 'ParameterInvalid', /login is missing/],
      [{ login: 'bob', email: 'x@example.com' }, 'ParameterInvalid', /password is missing/],
      [{ login: 'bob', email: 'x@example.com', password: 12345678 }, 'RecordInvalid', /most common passwords/],
      [{ login: 'bob', email: 'x@example.com', password: { a: 1 } }, 'ParameterInvalid', /password must be a string/],
      [{ login: 'b'.repeat(21), email: 'x@example.com', password: PASSWORD }, 'RecordInvalid', /Login must be/],
      [{ login: 'bob', email: 'not-an-address', password: PASSWORD }, 'RecordInvalid', /Email is invalid/],
      [{ login: 'bob', email: `${'x'.repeat(250)}@example.com`, password: PASSWORD }, 'RecordInvalid', /Email is invalid/],
      [{ login: 'bob', email: 'x@example.com', password: PASSWORD, name: 'n'.repeat(51) }, 'RecordInvalid', /Name is too long/],
      [{ login: 'bob', email: 'x@example.com', password: 'short' }, 'RecordInvalid', /too short \(minimum is 8/],
      [{ login: 'bob', email: 'x@example.com', password: 'p'.repeat(129) }, 'RecordInvalid', /too long \(maximum is 128/],
      [{ login: 'bob', email: 'x@example.com', password: 'Password1' }, 'RecordInvalid', /most common passwords/],
      [{ login: 'bob', email: 'x@example.com', password: 'iloveyou' }, 'RecordInvalid', /most common passwords/],
      [{ login: 'bob-smith', email: 'x@example.com', password: 'BOB-SMITH' }, 'RecordInvalid', /not be your login/],
      [{ login: 'bob', email: 'x@example.com', password: 'pass\u0000word' }, 'ParameterInvalid', /NUL/],
    ];
    for (const [index, [body, error, message]] of cases.entries()) {
      // Each its own address: the per-address limit is not what this test is about.
      if (body.email === 'x@example.com') body.email = `case${index}@example.com`;
      const res = await signUp(body).expect(400);
      expect(res.body.error, JSON.stringify(body)).to.equal(error);
      expect(res.body.message, JSON.stringify(body)).to.match(message);
    }
    expect(await testEnv().sql('select login from users where login <> $1 and login <> $2', ['system', 'alice'])).to.deep.equal(
      [],
    );
    expect(await tokenRows()).to.have.length(1);
  });

  it('the same login and address signed up twice at once: one account, the other answer 400', async () => {
    const body = { login: 'twin', email: 'twin@example.com', password: PASSWORD };
    const answers = await Promise.all([signUp(body), signUp(body), signUp(body)]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 200)).to.have.length(1);
    for (const res of answers.filter((r) => r.status !== 200)) {
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'RecordInvalid', message: 'Validation failed: Login has already been taken' });
    }
    expect(await testEnv().sql("select 1 from users where login = 'twin'")).to.have.length(1);
    expect(await tokenRows('twin')).to.have.length(1);
  });

  it('rate-limits sign-ups per target address (429 with Retry-After)', async () => {
    for (let i = 0; i < 5; i++) await signUp({ login: `x${i}`, email: 'same@example.com', password: PASSWORD });
    const res = await signUp({ login: 'x9', email: 'same@example.com', password: PASSWORD }).expect(429);
    expect(res.body.error).to.equal('TooManyRequests');
    expect(Number(res.headers['retry-after'])).to.be.above(0);
  });

  it('REGISTRATION=closed refuses sign-up (403); =invite wants a live invite, whose uses are counted', async () => {
    const closed = configuredWith({ registration: 'closed' });
    const refused = await signUp({ login: 'bob', email: 'bob@example.com', password: PASSWORD }, closed.app).expect(403);
    expect(refused.body.error).to.equal('AccessDenied');

    const invite = configuredWith({ registration: 'invite' });
    await signUp({ login: 'bob', email: 'bob@example.com', password: PASSWORD }, invite.app).expect(403);
    const created = await forumctl(['invites', 'create', '--uses', '1', '--reason', 'for bob, from the meetup', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const audited = await testEnv().sql<{ reason: string }>("select reason from audit_entries where action = 'invite.create'");
    expect(audited).to.deep.equal([{ reason: 'for bob, from the meetup' }]);
    const { code, link } = created.json<{ code: string; link: string }>();
    expect(link).to.equal(`http://forum.test/account/sign-up?invite=${code}`);
    await signUp({ login: 'bob', email: 'bob@example.com', password: PASSWORD, invite: code }, invite.app).expect(200);
    await signUp({ login: 'eve', email: 'eve@example.com', password: PASSWORD, invite: code }, invite.app).expect(403);
    const [row] = await testEnv().sql<{ uses: number }>('select uses from invites');
    expect(row!.uses).to.equal(1);
    expect(JSON.stringify(await testEnv().sql('select * from invites'))).not.to.include(code);
  });

  it('REGISTRATION=approval: a confirmed account waits for an administrator, who lets it in', async () => {
    const approval = configuredWith({ registration: 'approval' });
    await signUp({ login: 'bob', email: 'bob@example.com', password: PASSWORD }, approval.app).expect(200);
    const [row] = await tokenRows('bob');
    const confirmed = await testEnv().scope(() => approval.container.get(ConfirmAddress).execute(linkToken(row!)));
    expect(confirmed).to.deep.include({ state: 'pending' });
    const client = await appClient();
    const waiting = await passwordGrant(client, 'bob').expect(400);
    expect(waiting.body.error_description).to.include('approval');

    const pending = await forumctl(['users', 'pending', '--json']);
    expect(pending.json<{ users: { login: string }[] }>().users.map((u) => u.login)).to.deep.equal(['bob']);
    const approved = await forumctl(['users', 'approve', 'bob', '--reason', 'known to us']);
    expect(approved.code, approved.stderr).to.equal(0);
    await passwordGrant(client, 'bob').expect(200);
    expect((await forumctl(['users', 'approve', 'bob'])).code, 'not waiting any more').to.equal(2);
    const nobody = await forumctl(['users', 'pending'], { stdoutTerminal: false });
    expect(nobody.code, nobody.stderr).to.equal(0);
    expect(nobody.stdout.trim()).to.equal('');
    expect(nobody.stderr).to.include('nobody waits for approval');
    const vouched = await forumctl(['users', 'verify', 'bob']);
    expect(vouched.code).to.equal(2);
    expect(vouched.stderr).to.include('bob has no address waiting to be confirmed (the account is active)');
    expect(await events('account.approved')).to.have.length(1);
    const [audit] = await testEnv().sql<{ action: string; reason: string }>(
      "select action, reason from audit_entries where action = 'user.approve'",
    );
    expect(audit).to.deep.equal({ action: 'user.approve', reason: 'known to us' });
    void ApproveAccount;
  });

  it('a forgotten password: always ok; a reset link for an account; the reset ends every session and token', async () => {
    await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
    const client = await appClient();
    const old = (await passwordGrant(client, 'carol').expect(200)).body.access_token as string;
    for (const login of ['carol@example.com', 'nobody@example.com', 'nobody']) {
      const res = await api().post('/api/v3/users/password/forgot').send({ login }).expect(200);
      expect(res.body).to.deep.equal({ ok: 1 });
    }
    const rows = await tokenRows();
    expect(rows.map((row) => row.purpose)).to.deep.equal(['reset']);
    const token = linkToken(rows[0]!);

    const reset = testEnv().container.get(ResetPassword);
    // A reset token is no verification token, and a weak password leaves the link usable.
    expect(await testEnv().scope(() => testEnv().container.get(ConfirmAddress).execute(token))).to.equal(null);
    let weak: unknown;
    try {
      await testEnv().scope(() => reset.execute(token, 'password'));
    } catch (error) {
      weak = error;
    }
    expect(String(weak)).to.match(/most common passwords/);
    const done = await testEnv().scope(() => reset.execute(token, 'a brand new passphrase'));
    expect(done?.user.login).to.equal('carol');
    expect(await testEnv().scope(() => reset.execute(token, 'another new passphrase')), 'spent').to.equal(null);

    await api().get('/api/v3/hello').set('Authorization', `Bearer ${old}`).expect(401);
    await passwordGrant(client, 'carol').expect(400);
    await passwordGrant(client, 'carol', 'a brand new passphrase').expect(200);
    expect(await events('account.password_changed')).to.have.length(1);
  });

  it('an expired link confirms nothing and resets nothing, and says nothing about why', async () => {
    await signUp({ login: 'bob', email: 'bob@example.com', password: PASSWORD }).expect(200);
    await api().post('/api/v3/users/password/forgot').send({ login: 'bob' }).expect(200);
    await testEnv().sql("update account_tokens set expires_at = now() - interval '1 second'");
    const [verify, reset] = await tokenRows('bob');
    const env = testEnv();
    expect(await env.scope(() => env.container.get(ConfirmAddress).execute(linkToken(verify!)))).to.equal(null);
    expect(await env.scope(() => env.container.get(ResetPassword).execute(linkToken(reset!), 'a brand new passphrase'))).to.equal(
      null,
    );
    // Neither a made-up token nor one of another shape gets further.
    expect(await env.scope(() => env.container.get(ConfirmAddress).execute('x'.repeat(43)))).to.equal(null);
    expect(await env.scope(() => env.container.get(ConfirmAddress).execute('../../etc/passwd'))).to.equal(null);
    const [row] = await env.sql<{ state: string }>("select state from users where login = 'bob'");
    expect(row!.state).to.equal('unverified');
  });

  it('re-sends the verification mail to an unverified account only, and not within a minute of the last', async () => {
    await signUp({ login: 'bob', email: 'bob@example.com', password: PASSWORD }).expect(200);
    await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
    for (const login of ['bob', 'bob@example.com', 'carol', 'nobody']) {
      const res = await api().post('/api/v3/users/verification').send({ login }).expect(200);
      expect(res.body).to.deep.equal({ ok: 1 });
    }
    expect(await tokenRows('bob'), 'within a minute: nothing more').to.have.length(1);
    await testEnv().sql("update account_tokens set created_at = now() - interval '2 minutes'");
    await api().post('/api/v3/users/verification').send({ login: 'BOB' }).expect(200);
    const rows = await tokenRows('bob');
    expect(rows).to.have.length(2);
    expect(await tokenRows('carol')).to.have.length(0);
  });

  it('answers a known and an unknown address in the same time, within noise', async () => {
    // Nine of each (the address's limit is twenty an hour), interleaved, each pair in turn the other way round, so
    // that whatever else loads the machine weighs on both alike; medians compared.
    for (let i = 0; i < 9; i++) {
      await testEnv().sql("insert into users (login, email, password_hash) values ($1, $2, 'x')", [
        `known${i}`,
        `known${i}@example.com`,
      ]);
    }
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 9; i++) {
      const pair = [
        [known, `known${i}@example.com`, `k${i}x`],
        [unknown, `new${i}@example.com`, `n${i}x`],
      ] as const;
      for (const [list, email, login] of i % 2 === 0 ? pair : [...pair].reverse()) {
        const started = process.hrtime.bigint();
        await signUp({ login, email, password: PASSWORD }).expect(200);
        list.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
    // Each pair ran back to back: the median of their differences leaves out what loaded the machine meanwhile.
    const difference = median(known.map((time, i) => time - unknown[i]!));
    const typical = median([...known, ...unknown]);
    // The password hash (tens of milliseconds) dominates both; what differs is a row or two.
    expect(
      Math.abs(difference),
      `known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms, pairs differ by ${difference.toFixed(1)} ms`,
    ).to.be.below(Math.max(20, 0.35 * typical));
  });

  describe('owning an account (contract §16c)', () => {
    it('edits the profile: fields given are set, blank clears, bad ones are 400 and change nothing', async () => {
      const bob = await makeUser('bob');
      const res = await api()
        .patch('/api/v3/users/me')
        .set(bob.auth)
        .send({ name: 'Bob', location: 'Shanghai', website: 'https://bob.example', email_public: true })
        .expect(200);
      expect(res.body.user).to.include({
        name: 'Bob',
        location: 'Shanghai',
        website: 'https://bob.example',
        email: 'bob@example.com',
      });
      const seen = await api().get('/api/v3/users/bob').expect(200);
      expect(seen.body.user.email, 'public now').to.equal('bob@example.com');
      await api().put('/api/v3/users/me').set(bob.auth).type('form').send({ location: '', email_public: 'false' }).expect(200);
      const after = await api().get('/api/v3/users/bob').expect(200);
      expect(after.body.user).to.include({ name: 'Bob', location: null, email: '' });
      for (const [body, message] of [
        [{ name: 'n'.repeat(51) }, /Name is too long/],
        [{ tagline: 't'.repeat(101) }, /Tagline is too long/],
        [{ bio: 'b'.repeat(2001) }, /Bio is too long/],
        [{ website: 'javascript:alert(1)' }, /Website must be an http or https URL/],
        [{ email_public: 'maybe' }, /email_public must be true or false/],
      ] as const) {
        const refused = await api().patch('/api/v3/users/me').set(bob.auth).send(body).expect(400);
        expect(refused.body.message).to.match(message);
      }
      const [row] = await testEnv().sql<{ name: string; bio: string | null }>("select name, bio from users where login = 'bob'");
      expect(row).to.deep.equal({ name: 'Bob', bio: null });
      await api().patch('/api/v3/users/me').send({ name: 'x' }).expect(401);
    });

    it('changes the password with the current one; every other token ends, this one stays', async () => {
      await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
      const client = await appClient();
      const first = (await passwordGrant(client, 'carol').expect(200)).body.access_token as string;
      const second = (await passwordGrant(client, 'carol').expect(200)).body.access_token as string;
      const auth = { Authorization: `Bearer ${first}` };
      const wrong = await api()
        .put('/api/v3/users/me/password')
        .set(auth)
        .send({ current_password: 'not it', password: 'a brand new passphrase' })
        .expect(400);
      expect(wrong.body).to.deep.equal({ error: 'RecordInvalid', message: 'Validation failed: Current password is not correct' });
      const weak = await api()
        .put('/api/v3/users/me/password')
        .set(auth)
        .send({ current_password: PASSWORD, password: 'qwerty123' })
        .expect(400);
      expect(weak.body.message).to.match(/most common/);
      await api()
        .put('/api/v3/users/me/password')
        .set(auth)
        .send({ current_password: PASSWORD, password: 'a brand new passphrase' })
        .expect(200);
      await api().get('/api/v3/hello').set(auth).expect(200);
      await api().get('/api/v3/hello').set('Authorization', `Bearer ${second}`).expect(401);
      await passwordGrant(client, 'carol').expect(400);
      await passwordGrant(client, 'carol', 'a brand new passphrase').expect(200);
      expect(await events('account.password_changed')).to.have.length(1);
      // The current password is a guess like a sign-in's: three wrong ones (the tests' limit) lock the account here.
      for (let i = 0; i < 3; i++) {
        await api()
          .put('/api/v3/users/me/password')
          .set(auth)
          .send({ current_password: `guess ${i}`, password: 'another new passphrase' })
          .expect(400);
      }
      const locked = await api()
        .put('/api/v3/users/me/password')
        .set(auth)
        .send({ current_password: 'a brand new passphrase', password: 'another new passphrase' })
        .expect(429);
      expect(locked.headers['retry-after']).to.match(/^\d+$/);
    });

    it('exports everything held about the caller as one document, without a secret', async () => {
      await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
      const client = await appClient();
      const token = (await passwordGrant(client, 'carol').expect(200)).body.access_token as string;
      const auth = { Authorization: `Bearer ${token}` };
      const bob = await makeUser('bob');
      const node = await makeNode('General');
      const [carol] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
      const carolActor = { id: carol!.id, login: 'carol', role: 'member' as const };
      const topicId = await makeTopic(carolActor, node, 'Carol asks', 'a body only carol wrote');
      await makeReply(bob, topicId, 'bob answers @carol');
      await api().post('/api/v3/users/bob/follow').set(auth).expect(200);
      const res = await api().get('/api/v3/users/me/export').set(auth).expect(200);
      expect(res.headers['content-disposition']).to.include('attachment');
      const doc = res.body;
      expect(doc.profile).to.include({ login: 'carol', email: 'carol@example.com', state: 'active' });
      expect(doc.topics.map((t: { body: string }) => t.body)).to.deep.equal(['a body only carol wrote']);
      expect(doc.following.map((f: { login: string }) => f.login)).to.deep.equal(['bob']);
      expect(doc.notifications.map((n: { type: string }) => n.type)).to.deep.equal(['Mention']);
      expect(doc.tokens).to.have.length(1);
      expect(doc.tokens[0]).to.include({ application: 'Test client', scope: 'all' });
      const text = JSON.stringify(doc);
      expect(text).not.to.include(token);
      expect(text).not.to.match(/digest|password|argon2/);
      await api().get('/api/v3/users/me/export').expect(401);
    });

    it('leaving anonymizes the account: its posts stay under deleted_<id>, nothing opens it again', async () => {
      await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
      const client = await appClient();
      const token = (await passwordGrant(client, 'carol').expect(200)).body.access_token as string;
      const auth = { Authorization: `Bearer ${token}` };
      await api().patch('/api/v3/users/me').set(auth).send({ name: 'Carol', bio: 'about me' }).expect(200);
      await api().post('/api/v3/devices').set(auth).send({ platform: 'ios', token: 'device-token' }).expect(200);
      const node = await makeNode('General');
      const [carol] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
      const topicId = await makeTopic({ id: carol!.id, login: 'carol', role: 'member' }, node, 'Still here');

      const wrong = await api().delete('/api/v3/users/me').set(auth).send({ password: 'not it' }).expect(400);
      expect(wrong.body.message).to.equal('Validation failed: Password is not correct');
      await api().delete('/api/v3/users/me').set(auth).send({ password: PASSWORD }).expect(200);

      const [row] = await testEnv().sql<Record<string, unknown>>(
        'select login, name, email, bio, password_hash, email_notifications, email_digest from users where id = $1',
        [carol!.id],
      );
      expect(row).to.deep.equal({
        login: `deleted_${carol!.id}`,
        name: null,
        email: `deleted_${carol!.id}@deleted.invalid`,
        bio: null,
        password_hash: null,
        email_notifications: 'none',
        email_digest: 'none',
      });
      await api().get('/api/v3/hello').set(auth).expect(401);
      await passwordGrant(client, 'carol').expect(400);
      await passwordGrant(client, 'carol@example.com').expect(400);
      expect(await testEnv().sql('select 1 from devices where user_id = $1', [carol!.id])).to.have.length(0);
      const topic = await api().get(`/api/v3/topics/${topicId}`).expect(200);
      expect(topic.body.topic.user.login).to.equal(`deleted_${carol!.id}`);
      expect(await events('user.deleted')).to.deep.equal([{ userId: carol!.id }]);
      // The address and login are free again.
      await signUp({ login: 'carol', email: 'carol@example.com', password: PASSWORD }).expect(200);
    });

    it('an account without a password (made by a provider) leaves by typing its login; a wrong one counts as a wrong password', async () => {
      // As signing in with GitHub makes it: no password, a link to the provider (makeUser inserts no password digest).
      const gina = await makeUser('gina');
      await testEnv().sql(
        "insert into provider_links (user_id, provider, subject, created_at) values ($1, 'github', '4242', now())",
        [gina.id],
      );
      const leave = (body: Record<string, unknown>) => api().delete('/api/v3/users/me').set(gina.auth).send(body);
      const refused = 'Validation failed: Login is not correct: this account has no password, so type your login to confirm';

      // Another login, a password (it has none), or nothing at all: refused, and the account stays.
      expect((await leave({ login: 'bob' }).expect(400)).body).to.deep.equal({ error: 'RecordInvalid', message: refused });
      expect((await leave({ password: 'whatever it is' }).expect(400)).body.message).to.equal(refused);
      // The lock of failed sign-ins (three in the tests) holds it too: even its own login waits now.
      await leave({}).expect(400);
      const locked = await leave({ login: 'gina' }).expect(429);
      expect(locked.headers['retry-after']).to.match(/^\d+$/);
      await api().get('/api/v3/hello').set(gina.auth).expect(200);

      // The window over, its own login (in any case, spaces around it ignored) confirms it.
      await new Promise((resolve) => setTimeout(resolve, 2100));
      await leave({ login: ' Gina ' }).expect(200);
      const [row] = await testEnv().sql<{ login: string; state: string }>('select login, state from users where id = $1', [
        gina.id,
      ]);
      expect(row).to.deep.equal({ login: `deleted_${gina.id}`, state: 'left' });
      expect(await testEnv().sql('select 1 from provider_links where user_id = $1', [gina.id])).to.have.length(0);
      await api().get('/api/v3/hello').set(gina.auth).expect(401);
      expect(await events('user.deleted')).to.deep.equal([{ userId: gina.id }]);
    });

    it('an account with a password cannot leave with its login: the password it has is asked for', async () => {
      await forumctl(['users', 'create', 'hal', '--email', 'hal@example.com', '--password', PASSWORD]);
      const client = await appClient();
      const token = (await passwordGrant(client, 'hal').expect(200)).body.access_token as string;
      const auth = { Authorization: `Bearer ${token}` };
      const onlyLogin = await api().delete('/api/v3/users/me').set(auth).send({ login: 'hal' }).expect(400);
      expect(onlyLogin.body).to.deep.equal({ error: 'RecordInvalid', message: 'Validation failed: Password is not correct' });
      await api().delete('/api/v3/users/me').set(auth).send({ login: 'hal', password: 'not it' }).expect(400);
      await api().get('/api/v3/hello').set(auth).expect(200);
      expect(await testEnv().sql("select 1 from users where login = 'hal'")).to.have.length(1);
      await api().delete('/api/v3/users/me').set(auth).send({ password: PASSWORD, login: 'hal' }).expect(200);
      await api().get('/api/v3/hello').set(auth).expect(401);
    });

    it('leaving ends every way in (contract §25): personal tokens, second factors, waiting sign-ins, provider links', async () => {
      const carol = await makeUser('carol');
      const personal = await api()
        .post('/api/v3/users/me/tokens')
        .set(carol.auth)
        .send({ name: 'bot', scope: 'all' })
        .expect(200);
      const now = new Date();
      for (const insert of [
        "insert into user_totp (user_id, sealed_secret, confirmed_at, created_at) values ($1, 'v1.sealed', $2, $2)",
        "insert into recovery_codes (user_id, digest, created_at) values ($1, repeat('a', 64), $2)",
        "insert into pending_sign_ins (digest, user_id, continue_to, expires_at) values (repeat('b', 64), $1, '/', $2::timestamptz + interval '9 minutes')",
        "insert into provider_links (user_id, provider, subject, created_at) values ($1, 'github', '42', $2)",
      ]) {
        await testEnv().sql(insert, [carol.id, now]);
      }
      await forumctl(['users', 'delete', 'carol', '--reason', 'asked to leave', '--yes']);

      await api().get('/api/v3/hello').set('Authorization', `Bearer ${personal.body.access_token}`).expect(401);
      for (const table of ['user_totp', 'recovery_codes', 'pending_sign_ins', 'provider_links']) {
        expect(await testEnv().sql(`select 1 from ${table} where user_id = $1`, [carol.id]), table).to.have.length(0);
      }
    });

    it('forumctl users delete --purge: an administrator anonymizes and deletes what the user wrote, audited', async () => {
      const spammer = await makeUser('spammer');
      const bob = await makeUser('bob');
      const node = await makeNode('General');
      const first = await makeTopic(spammer, node, 'buy now');
      await makeTopic(spammer, node, 'buy again');
      const bobs = await makeTopic(bob, node, 'a real question');
      await makeReply(spammer, bobs, 'buy buy');
      expect((await forumctl(['users', 'delete', 'spammer', '--as', 'bob'])).code).to.equal(3);
      const done = await forumctl(['users', 'delete', 'spammer', '--purge', '--reason', 'spam', '--json']);
      expect(done.code, done.stderr).to.equal(0);
      expect(done.json()).to.deep.equal({ login: `deleted_${spammer.id}`, purged: { topics: 2, replies: 1 } });
      await api().get(`/api/v3/topics/${first}`).expect(404);
      const question = await api().get(`/api/v3/topics/${bobs}`).expect(200);
      expect(question.body.topic.replies_count).to.equal(0);
      const [audit] = await testEnv().sql<{ reason: string }>("select reason from audit_entries where action = 'user.delete'");
      expect(audit).to.deep.equal({ reason: 'spam' });
      expect((await forumctl(['users', 'delete', 'nobody'])).code).to.equal(4);
    });

    it('a new address takes effect once its link is followed; the previous one is told; a taken one gets no mail', async () => {
      await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com', '--password', PASSWORD]);
      await forumctl(['users', 'create', 'dave', '--email', 'dave@example.com', '--password', PASSWORD]);
      const [carol] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
      const actor = { id: carol!.id, login: 'carol', role: 'member' as const };
      const change = testEnv().container.get(RequestEmailChange);
      const here = { address: '127.0.0.1' };
      let refused: unknown;
      try {
        await testEnv().scope(() => change.execute(actor, { email: 'new@example.com', current_password: 'wrong' }, here));
      } catch (error) {
        refused = error;
      }
      expect(String(refused)).to.match(/Current password is not correct/);
      await testEnv().scope(() => change.execute(actor, { email: 'DAVE@example.com', current_password: PASSWORD }, here));
      expect(await tokenRows('carol'), 'a taken address: no link').to.have.length(0);
      await testEnv().scope(() => change.execute(actor, { email: 'carol@new.example', current_password: PASSWORD }, here));
      const [row] = await tokenRows('carol');
      expect(row).to.include({ purpose: 'email_change' });
      const [still] = await testEnv().sql<{ email: string }>('select email from users where id = $1', [carol!.id]);
      expect(still!.email, 'not before the link').to.equal('carol@example.com');
      const confirmed = await testEnv().scope(() => testEnv().container.get(ConfirmAddress).execute(linkToken(row!)));
      expect(confirmed).to.deep.include({ email: 'carol@new.example' });
      const [now] = await testEnv().sql<{ email: string }>('select email from users where id = $1', [carol!.id]);
      expect(now!.email).to.equal('carol@new.example');
      expect(await events('account.email_changed')).to.deep.equal([{ userId: carol!.id, previousEmail: 'carol@example.com' }]);
    });

    it('mail preferences: the defaults, then what the caller sets; a bad value is 400 and changes nothing (§17)', async () => {
      await signUp({ login: 'mei', email: 'mei@example.com', password: PASSWORD }).set('Accept-Language', 'zh').expect(200);
      const [mei] = await testEnv().sql<{ id: number }>("select id from users where login = 'mei'");
      await testEnv().sql("update users set state = 'active' where id = $1", [mei!.id]);
      const token = await testEnv().scope(() => testEnv().useCases.issueToken.execute({ userId: mei!.id, clientId: null }));
      const auth = { Authorization: `Bearer ${token.access_token}` };
      const shown = await api().get('/api/v3/users/me/preferences').set(auth).expect(200);
      expect(shown.body).to.deep.equal({
        preferences: {
          email_notifications: 'mentions_and_replies',
          email_digest: 'weekly',
          email_messages: 'always',
          locale: 'zh-CN',
        },
      });
      const changed = await api()
        .put('/api/v3/users/me/preferences')
        .set(auth)
        .send({ email_notifications: 'mentions', locale: 'en' })
        .expect(200);
      expect(changed.body.preferences).to.deep.equal({
        email_notifications: 'mentions',
        email_digest: 'weekly',
        email_messages: 'always',
        locale: 'en',
      });
      const refused = await api().put('/api/v3/users/me/preferences').set(auth).send({ email_digest: 'hourly' }).expect(400);
      expect(refused.body.message).to.equal('email_digest must be one of weekly, daily, none');
      const again = await api().get('/api/v3/users/me/preferences').set(auth).expect(200);
      expect(again.body.preferences.email_digest).to.equal('weekly');
      // The empty string is no choice: refused and named, as any value outside the allowed ones (issue 44).
      for (const key of ['email_notifications', 'email_digest', 'locale']) {
        const blank = await api()
          .put('/api/v3/users/me/preferences')
          .set(auth)
          .send({ [key]: '' })
          .expect(400);
        expect(blank.body).to.deep.include({ error: 'ParameterInvalid' });
        expect(blank.body.message, key).to.match(new RegExp(`^${key} must be one of `));
      }
      const unchanged = await api().get('/api/v3/users/me/preferences').set(auth).expect(200);
      expect(unchanged.body.preferences).to.deep.equal({
        email_notifications: 'mentions',
        email_digest: 'weekly',
        email_messages: 'always',
        locale: 'en',
      });
      await api().get('/api/v3/users/me/preferences').expect(401);
    });
  });
});
