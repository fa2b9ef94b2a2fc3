import { expect } from 'chai';
import { ReceiveMail } from '../../src/application/mail/receive-mail.js';
import { MailTokenKeys } from '../../src/application/ports.js';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';
import { plainMail } from '../support/inbound-mail.js';

interface Listed {
  mails: {
    id: number;
    received_at: string;
    via: string;
    message_id: string | null;
    from: string | null;
    user: string | null;
    user_id: number | null;
    topic_id: number | null;
    outcome: string;
    reason: string | null;
    reply_id: number | null;
    size: number;
  }[];
}

describe('forumctl mail inbound (reply by e-mail)', () => {
  it('lists received mail newest first: when, via, from, user, topic, outcome, reason; --json; --limit', async () => {
    expect((await forumctl(['mail', 'inbound', '--json'])).json<Listed>()).to.deep.equal({ mails: [] });
    expect((await forumctl(['mail', 'inbound'])).stderr).to.contain('no mail received');

    const env = testEnv();
    const { container } = configuredWith({ mail: { ...env.config.mail, replyAddress: 'reply+%{key}@forum.test' } });
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topicId = await makeTopic(alice, await makeNode('General'));
    const to = `reply+${container.get<MailTokenKeys>(MailTokenKeys).replyKey(bob.id, topicId)}@forum.test`;
    const receive = (raw: Buffer, via: 'http' | 'smtp') =>
      env.scope(() => container.get(ReceiveMail).execute({ via, raw, size: raw.length }));
    await receive(plainMail({ from: 'bob@example.com', to, messageId: 'one@mail.example.com', reply: 'Posted by mail' }), 'http');
    await receive(plainMail({ from: 'mallory@example.com', to, messageId: 'two@mail.example.com', reply: 'Forged' }), 'smtp');

    const listed = await forumctl(['mail', 'inbound', '--json']);
    expect(listed.code, listed.stderr).to.equal(0);
    const { mails } = listed.json<Listed>();
    expect(mails.map((m) => [m.via, m.from, m.user, m.topic_id, m.outcome, m.reason])).to.deep.equal([
      ['smtp', 'mallory@example.com', 'bob', topicId, 'refused', "sender is not the key's user"],
      ['http', 'bob@example.com', 'bob', topicId, 'posted', null],
    ]);
    expect(mails[1]!.reply_id).to.be.a('number');
    expect(mails[1]!.message_id).to.equal('one@mail.example.com');
    expect(new Date(mails[0]!.received_at).getTime()).to.be.closeTo(Date.now(), 60_000);
    expect((await forumctl(['mail', 'inbound', '--limit', '1', '--json'])).json<Listed>().mails).to.have.length(1);

    const table = await forumctl(['mail', 'inbound']);
    expect(table.stdout).to.match(/^when\s+via\s+from\s+user\s+topic\s+outcome\s+reason/);
    expect(table.stdout).to.contain('mallory@example.com').and.contain('refused').and.contain(`posted #${mails[1]!.reply_id}`);
    // Never a key: the addresses the mail was sent to are not kept.
    expect(table.stdout + listed.stdout).to.not.contain('reply+');
  });

  it('is for administrators, and checks --limit', async () => {
    await makeUser('bob');
    const member = await forumctl(['mail', 'inbound', '--as', 'bob']);
    expect(member.code).to.equal(3);
    expect(member.stderr).to.contain('reading received mail is for administrators; bob is a member');
    expect((await forumctl(['mail', 'inbound', '--limit', '0'])).code).to.equal(2);
  });
});
