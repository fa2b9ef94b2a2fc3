import type { ConversationStore } from '../../src/application/conversations/ports.js';
import type { ReplyToConversation } from '../../src/application/conversations/write-conversations.js';
import { expect } from 'chai';
import type { InboundMailEntry, InboundMailLog, MailReader, ReadMail } from '../../src/application/mail/inbound.js';
import { type IncomingMail, ReceiveMail } from '../../src/application/mail/receive-mail.js';
import type { Unsubscribe } from '../../src/application/mail/unsubscribe.js';
import type { CreateReply } from '../../src/application/replies/create-reply.js';
import { RuleViolated, TooManyRequests } from '../../src/domain/shared/errors.js';
import { TOPIC_CLOSED } from '../../src/domain/topics/topic.js';
import { User } from '../../src/domain/users/user.js';
import type { UserRepository } from '../../src/domain/users/user-repository.js';
import { HmacMailTokenKeys } from '../../src/adapters/system/mail-token-keys.js';
import { FakeUsers, fixedClock, immediateUnitOfWork } from '../support/fakes.js';

const keys = new HmacMailTokenKeys('a unit test secret key, 32 characters or more');
const BOB_ID = 7;
const TOPIC_ID = 12;
const replyTo = `reply+${keys.replyKey(BOB_ID, TOPIC_ID)}@forum.example`;

function readMail(changes: Partial<ReadMail> = {}): ReadMail {
  return {
    messageId: 'm1@mail.example',
    from: 'bob@example.com',
    recipients: [replyTo],
    subject: 'Re: A topic',
    text: 'A reply\n\n> quoted',
    html: null,
    htmlText: null,
    autoSubmitted: null,
    precedence: null,
    nullReturnPath: false,
    autoReplyHeader: false,
    report: false,
    attachmentSizes: [],
    ...changes,
  };
}

/** ReceiveMail on fakes: what it asks of each port tells the order of its checks. */
function receiver(options: { read?: ReadMail | null; replyAddress?: string | null; createReply?: () => Promise<unknown> } = {}) {
  const calls: string[] = [];
  const recorded: InboundMailEntry[] = [];
  const posted = new Set<string>();
  const reader: MailReader = {
    read: async () => {
      calls.push('read');
      return options.read === undefined ? readMail() : options.read;
    },
  };
  const users: UserRepository = new FakeUsers();
  users.findById = async (id: number) => {
    calls.push(`user ${id}`);
    if (id !== BOB_ID) return null;
    const bob = User.register({ login: 'bob', email: 'Bob@Example.com', passwordHash: null, role: 'member' }, fixedClock.now());
    bob.id = BOB_ID;
    return bob;
  };
  const createReply = {
    execute: async (actor: { id: number }, input: { topicId: number; body: string }) => {
      calls.push(`reply ${actor.id} ${input.topicId} ${JSON.stringify(input.body)}`);
      if (options.createReply) await options.createReply();
      return { reply: { id: 99 } };
    },
  } as unknown as CreateReply;
  const unsubscribe = {
    execute: async (key: string) => {
      calls.push('unsubscribe');
      return keys.readUnsubscribeKey(key);
    },
  } as unknown as Unsubscribe;
  const log: InboundMailLog = {
    record: async (entry) => {
      if (entry.outcome === 'posted' && entry.messageId !== null) {
        if (posted.has(entry.messageId)) return false;
        posted.add(entry.messageId);
      }
      recorded.push(entry);
      return true;
    },
    wasPosted: async (id) => {
      calls.push('posted?');
      return posted.has(id);
    },
    list: async () => [],
  };
  const receive = new ReceiveMail(
    options.replyAddress === undefined ? 'reply+%{key}@forum.example' : options.replyAddress,
    reader,
    keys,
    users,
    createReply,
    // Every key names a topic here (the integration tests answer a conversation by mail).
    { place: async () => null } as unknown as ConversationStore,
    {} as ReplyToConversation,
    unsubscribe,
    log,
    immediateUnitOfWork,
    fixedClock,
  );
  return { receive, calls, recorded, posted };
}

const mail = (changes: Partial<IncomingMail> = {}): IncomingMail => ({ via: 'http', raw: Buffer.from('x'), size: 1, ...changes });

describe('ReceiveMail', () => {
  it('posts the stripped text as the key’s user, the sender compared in any case, and records it with its reply', async () => {
    const { receive, calls, recorded } = receiver();
    const received = await receive.execute(mail());
    expect(received).to.deep.equal({ outcome: 'posted', reason: null, replyId: 99, temporary: false, duplicate: false });
    expect(calls).to.deep.equal(['read', 'posted?', `user ${BOB_ID}`, `reply ${BOB_ID} ${TOPIC_ID} "A reply"`]);
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.deep.include({
      outcome: 'posted',
      replyId: 99,
      userId: BOB_ID,
      topicId: TOPIC_ID,
      messageId: 'm1@mail.example',
    });
  });

  it('refuses a message too large before reading it, and everything when reply by e-mail is off', async () => {
    const large = receiver();
    expect((await large.receive.execute(mail({ raw: null, size: 30_000_000 }))).reason).to.equal('too large');
    expect(large.calls).to.deep.equal([]);
    expect(large.recorded[0]).to.deep.include({ outcome: 'refused', reason: 'too large', size: 30_000_000 });
    const off = receiver({ replyAddress: null });
    expect((await off.receive.execute(mail())).reason).to.equal('reply by e-mail is off');
    expect(off.receive.accepts(replyTo)).to.equal(false);
  });

  it('refuses a machine’s mail before looking at its key (the null sender of the envelope too)', async () => {
    for (const read of [
      readMail({ autoSubmitted: 'auto-replied' }),
      readMail({ precedence: 'junk' }),
      readMail({ nullReturnPath: true }),
      readMail({ report: true }),
    ]) {
      const { receive, calls } = receiver({ read });
      expect((await receive.execute(mail())).reason).to.equal('auto-reply');
      expect(calls).to.deep.equal(['read']);
    }
    const bounce = receiver();
    const received = await bounce.receive.execute(mail({ via: 'smtp', envelope: { mailFrom: null, recipients: [replyTo] } }));
    expect(received.reason).to.equal('auto-reply');
    expect((await receiver({ read: readMail({ autoSubmitted: 'no' }) }).receive.execute(mail())).outcome).to.equal('posted');
  });

  it('posts a Message-ID once: a copy is a duplicate, before or inside the transaction', async () => {
    const { receive, posted } = receiver();
    await receive.execute(mail());
    expect(await receive.execute(mail())).to.deep.include({ outcome: 'refused', reason: 'duplicate', duplicate: true });
    // The race: the first copy commits between the second's check and its insert.
    const racing = receiver({ createReply: async () => void racing.posted.add('m1@mail.example') });
    expect(await racing.receive.execute(mail())).to.deep.include({ reason: 'duplicate', duplicate: true });
    expect(posted.size).to.equal(1);
  });

  it('finds the key among the envelope, To, Cc, Delivered-To, in any case; a reply key before an unsubscribe key', async () => {
    const upper = receiver({ read: readMail({ recipients: ['someone@example.com', replyTo.toUpperCase()] }) });
    expect((await upper.receive.execute(mail())).outcome).to.equal('posted');
    const envelope = receiver({ read: readMail({ recipients: [] }) });
    expect(
      (await envelope.receive.execute(mail({ via: 'smtp', envelope: { mailFrom: 'bob@example.com', recipients: [replyTo] } })))
        .outcome,
    ).to.equal('posted');
    const unsubscribeTo = `reply+${keys.unsubscribeKey(BOB_ID, 'notifications')}@forum.example`;
    const both = receiver({ read: readMail({ recipients: [unsubscribeTo, replyTo] }) });
    expect((await both.receive.execute(mail())).outcome).to.equal('posted');
    const unsubscribe = receiver({ read: readMail({ recipients: [unsubscribeTo] }) });
    expect(await unsubscribe.receive.execute(mail())).to.deep.include({ outcome: 'unsubscribed', reason: null });
    expect(unsubscribe.calls).to.deep.equal(['read', 'posted?', 'unsubscribe']);
    expect(unsubscribe.recorded[0]).to.deep.include({ outcome: 'unsubscribed', userId: BOB_ID });
  });

  it('refuses an unknown key, another sender, an empty reply, an unknown user: nothing is posted', async () => {
    const cases: [Partial<ReadMail>, string][] = [
      [{ recipients: ['reply+7-12-00000000000000000000000000000000@forum.example'] }, 'unknown key'],
      [{ recipients: ['reply+7-12@forum.example', 'bob@forum.example'] }, 'unknown key'],
      [{ from: 'mallory@example.com' }, "sender is not the key's user"],
      [{ text: '> only a quote\n\n-- \nBob' }, 'empty'],
      [{ recipients: [`reply+${keys.replyKey(8, TOPIC_ID)}@forum.example`] }, 'unknown user'],
    ];
    for (const [changes, reason] of cases) {
      const { receive, calls } = receiver({ read: readMail(changes) });
      expect((await receive.execute(mail())).reason, reason).to.equal(reason);
      expect(
        calls.some((call) => call.startsWith('reply')),
        reason,
      ).to.equal(false);
    }
  });

  it('records a refusal of reply create with its reason; too many replies is temporary', async () => {
    const closed = receiver({ createReply: () => Promise.reject(new RuleViolated(TOPIC_CLOSED)) });
    expect(await closed.receive.execute(mail())).to.deep.include({
      outcome: 'refused',
      reason: 'topic closed',
      temporary: false,
    });
    expect(closed.recorded.map((entry) => entry.outcome)).to.deep.equal(['refused']);
    const limited = receiver({ createReply: () => Promise.reject(new TooManyRequests(60)) });
    expect(await limited.receive.execute(mail())).to.deep.include({ reason: 'too many replies', temporary: true });
    const broken = receiver({ createReply: () => Promise.reject(new Error('the database went away')) });
    let thrown: unknown = null;
    await broken.receive.execute(mail()).catch((error: unknown) => (thrown = error));
    expect((thrown as Error).message).to.equal('the database went away');
  });

  it('accepts at RCPT TO only our pattern with a key that reads', () => {
    const { receive } = receiver();
    expect(receive.accepts(replyTo)).to.equal(true);
    expect(receive.accepts(` ${replyTo.toUpperCase()} `)).to.equal(true);
    expect(receive.accepts(`reply+${keys.unsubscribeKey(BOB_ID, 'digest')}@forum.example`)).to.equal(true);
    expect(receive.accepts('reply+7-12-00000000000000000000000000000000@forum.example')).to.equal(false);
    expect(receive.accepts(replyTo.replace('@forum.example', '@evil.example'))).to.equal(false);
    expect(receive.accepts('postmaster@forum.example')).to.equal(false);
  });
});
