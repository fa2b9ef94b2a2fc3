import { expect } from 'chai';
import { ConfirmTotpEnrolment, StartTotpEnrolment } from '../../src/application/second-factors/enrolment.js';
import { api } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { totpCode } from '../support/totp.js';

const PASSWORD = 'correct horse battery';

describe('forumctl users 2fa reset (contract §25)', () => {
  it('removes a user’s second factors for an administrator, audited; refuses others and users without one', async () => {
    const env = testEnv();
    for (const login of ['alice', 'bob']) {
      const made = await forumctl(['users', 'create', login, '--email', `${login}@example.com`, '--password', PASSWORD]);
      expect(made.code, made.stderr).to.equal(0);
    }
    const [row] = await env.sql<{ id: number }>("select id from users where login = 'alice'");
    const alice = { id: row!.id, login: 'alice', role: 'member' as const };
    const { secret } = await env.scope(() => env.container.get(StartTotpEnrolment).execute(alice));
    await env.scope(() => env.container.get(ConfirmTotpEnrolment).execute(alice, { code: totpCode(secret) }));
    const client = (await forumctl(['apps', 'create', 'Test client', '--json'])).json<Record<string, string>>();
    const grant = () =>
      api()
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'password', username: 'alice', password: PASSWORD, ...client });
    await grant().expect(400);

    const denied = await forumctl(['users', '2fa', 'reset', 'alice', '--as', 'bob']);
    expect(denied.code).to.not.equal(0);
    expect(denied.stderr).to.include('administrators');

    const reset = await forumctl(['users', '2fa', 'reset', 'alice', '--reason', 'lost her phone', '--json']);
    expect(reset.code, reset.stderr).to.equal(0);
    expect(reset.json()).to.deep.equal({ login: 'alice', second_factor: false });
    await grant().expect(200);

    const audit = await env.sql<{ action: string; reason: string }>(
      "select action, reason from audit_entries where action = 'user.second_factor_reset'",
    );
    expect(audit).to.deep.equal([{ action: 'user.second_factor_reset', reason: 'lost her phone' }]);

    const again = await forumctl(['users', '2fa', 'reset', 'alice']);
    expect(again.code).to.not.equal(0);
    expect(again.stderr).to.include('has no second factor');
  });
});
