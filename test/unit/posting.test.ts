import { expect } from 'chai';
import {
  type Author,
  type PostingHistory,
  type PostingLimits,
  NEW_ACCOUNT_LINKS,
  isNewAccount,
  judgeEdit,
  judgeNewPost,
  needsHistory,
  requireMayPost,
} from '../../src/domain/review/posting.js';
import { Forbidden, RuleViolated, TooManyRequests } from '../../src/domain/shared/errors.js';

const HOUR = 3_600_000;
const now = new Date('2026-11-21T08:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const ahead = (ms: number) => new Date(now.getTime() + ms);

/** A member who signed up themself an hour ago, neither silenced nor suspended. */
function author(changes: Partial<Author> = {}): Author {
  return {
    id: 7,
    role: 'member',
    selfRegistered: true,
    joinedAt: ago(HOUR),
    silencedUntil: null,
    suspendedUntil: null,
    ...changes,
  };
}
const veteran = (changes: Partial<Author> = {}) => author({ joinedAt: ago(30 * 24 * HOUR), ...changes });
const trusted = (changes: Partial<Author> = {}) => author({ selfRegistered: false, ...changes });
const admin = (changes: Partial<Author> = {}) => author({ role: 'admin', ...changes });

const limits = (changes: Partial<PostingLimits> = {}): PostingLimits => ({
  holdFirstPosts: 0,
  topicsPerDay: 3,
  repliesPerDay: 20,
  messagesPerDay: 5,
  ...changes,
});
const history = (changes: Partial<PostingHistory> = {}): PostingHistory => ({
  recent: 0,
  published: 0,
  repeated: false,
  ...changes,
});
const topic = (links = 0) => ({ kind: 'topic' as const, links });
const reply = (links = 0) => ({ kind: 'reply' as const, links });

function caught(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
}

describe('isNewAccount', () => {
  it('counts an account that signed up itself as new in its first 24 hours', () => {
    expect(isNewAccount(author({ joinedAt: now }), now)).to.equal(true);
    expect(isNewAccount(author({ joinedAt: ago(HOUR) }), now)).to.equal(true);
    expect(isNewAccount(author({ joinedAt: ago(24 * HOUR - 1) }), now)).to.equal(true);
  });

  it('no longer counts it as new at 24 hours or later', () => {
    expect(isNewAccount(author({ joinedAt: ago(24 * HOUR) }), now)).to.equal(false);
    expect(isNewAccount(author({ joinedAt: ago(25 * HOUR) }), now)).to.equal(false);
  });

  it('never counts an administrator as new', () => {
    expect(isNewAccount(admin({ joinedAt: now }), now)).to.equal(false);
  });

  it('never counts an account it did not sign up itself (created or imported) as new', () => {
    expect(isNewAccount(trusted({ joinedAt: now }), now)).to.equal(false);
  });
});

describe('requireMayPost', () => {
  it('lets an account that is neither silenced nor suspended post', () => {
    expect(() => requireMayPost(author(), now)).not.to.throw();
  });

  it('refuses a suspended account with a message naming the end of the suspension', () => {
    const until = ahead(2 * 24 * HOUR);
    const error = caught(() => requireMayPost(author({ suspendedUntil: until }), now));
    expect(error).to.be.instanceOf(Forbidden);
    expect((error as Forbidden).publicMessage)
      .to.include('suspended')
      .and.include(until.toISOString());
  });

  it('refuses a silenced account with a message naming the end of the silence', () => {
    const until = ahead(HOUR);
    const error = caught(() => requireMayPost(author({ silencedUntil: until }), now));
    expect(error).to.be.instanceOf(Forbidden);
    expect((error as Forbidden).publicMessage)
      .to.include('silenced')
      .and.include(until.toISOString());
  });

  it('lets an account post once its silence or suspension has ended', () => {
    expect(() => requireMayPost(author({ silencedUntil: ago(1) }), now)).not.to.throw();
    expect(() => requireMayPost(author({ suspendedUntil: ago(HOUR) }), now)).not.to.throw();
    expect(() => requireMayPost(author({ silencedUntil: now, suspendedUntil: now }), now)).not.to.throw();
  });

  it('refuses an old, trusted account alike', () => {
    expect(() => requireMayPost(trusted({ joinedAt: ago(900 * 24 * HOUR), silencedUntil: ahead(1) }), now)).to.throw(Forbidden);
  });
});

describe('needsHistory', () => {
  it('needs none for a trusted account, with or without holds', () => {
    expect(needsHistory(trusted(), limits(), now)).to.equal(false);
    expect(needsHistory(trusted(), limits({ holdFirstPosts: 5 }), now)).to.equal(false);
  });

  it('needs it for a new account even without holds', () => {
    expect(needsHistory(author(), limits(), now)).to.equal(true);
  });

  it('needs it for an account past its first day that signed up itself only when holds are on', () => {
    expect(needsHistory(veteran(), limits(), now)).to.equal(false);
    expect(needsHistory(veteran(), limits({ holdFirstPosts: 1 }), now)).to.equal(true);
  });

  it('never needs it for an administrator', () => {
    expect(needsHistory(admin({ joinedAt: now }), limits({ holdFirstPosts: 5 }), now)).to.equal(false);
  });
});

describe('judgeNewPost: new accounts’ limits', () => {
  it('passes a trusted account’s post without reading any history', () => {
    expect(judgeNewPost(topic(9), trusted(), null, limits(), now)).to.deep.equal({ held: false });
  });

  it('throws when the rules need the author’s history and none was given', () => {
    expect(() => judgeNewPost(topic(), author(), null, limits(), now)).to.throw(Error, /history/);
    expect(() => judgeNewPost(topic(), veteran(), null, limits({ holdFirstPosts: 1 }), now)).to.throw(Error, /history/);
  });

  it('lets a new account post topics up to the daily limit', () => {
    expect(judgeNewPost(topic(), author(), history({ recent: 2 }), limits(), now)).to.deep.equal({ held: false });
  });

  it('answers 429 with a message once a new account posted its topics of the day', () => {
    const error = caught(() => judgeNewPost(topic(), author(), history({ recent: 3 }), limits(), now));
    expect(error).to.be.instanceOf(TooManyRequests);
    expect((error as TooManyRequests).message).to.include('3 topics');
  });

  it('counts replies against the replies’ limit, not the topics’', () => {
    expect(judgeNewPost(reply(), author(), history({ recent: 3 }), limits(), now)).to.deep.equal({ held: false });
    expect(judgeNewPost(reply(), author(), history({ recent: 19 }), limits(), now)).to.deep.equal({ held: false });
    const error = caught(() => judgeNewPost(reply(), author(), history({ recent: 20 }), limits(), now));
    expect(error).to.be.instanceOf(TooManyRequests);
    expect((error as TooManyRequests).message).to.include('20 replies');
  });

  it('follows the configured limits', () => {
    const tight = limits({ topicsPerDay: 1, repliesPerDay: 2 });
    expect(() => judgeNewPost(topic(), author(), history({ recent: 1 }), tight, now)).to.throw(TooManyRequests);
    expect(() => judgeNewPost(reply(), author(), history({ recent: 1 }), tight, now)).not.to.throw();
    expect(() => judgeNewPost(reply(), author(), history({ recent: 2 }), tight, now)).to.throw(TooManyRequests);
  });

  it('says to retry when the account is 24 hours old', () => {
    const error = caught(() =>
      judgeNewPost(topic(), author({ joinedAt: ago(HOUR) }), history({ recent: 3 }), limits(), now),
    ) as TooManyRequests;
    expect(error.retryAfterSeconds).to.equal(23 * 3600);
  });

  it('rounds the wait up to whole seconds, and waits at least one', () => {
    const almostDay = caught(() =>
      judgeNewPost(topic(), author({ joinedAt: ago(24 * HOUR - 1) }), history({ recent: 3 }), limits(), now),
    ) as TooManyRequests;
    expect(almostDay.retryAfterSeconds).to.equal(1);
    const halfSecondsLeft = caught(() =>
      judgeNewPost(topic(), author({ joinedAt: ago(24 * HOUR - 1500) }), history({ recent: 3 }), limits(), now),
    ) as TooManyRequests;
    expect(halfSecondsLeft.retryAfterSeconds).to.equal(2);
  });

  it('lifts the daily limit once the account is a day old', () => {
    expect(judgeNewPost(topic(), author({ joinedAt: ago(24 * HOUR) }), history({ recent: 50 }), limits(), now)).to.deep.equal({
      held: false,
    });
  });

  it(`refuses a new account’s post with more than ${NEW_ACCOUNT_LINKS} links`, () => {
    expect(() => judgeNewPost(topic(NEW_ACCOUNT_LINKS), author(), history(), limits(), now)).not.to.throw();
    const error = caught(() => judgeNewPost(reply(NEW_ACCOUNT_LINKS + 1), author(), history(), limits(), now));
    expect(error).to.be.instanceOf(RuleViolated);
    expect((error as RuleViolated).message)
      .to.match(/^Validation failed: /)
      .and.include(`${NEW_ACCOUNT_LINKS + 1} links`);
  });

  it('lets an older or trusted account post any number of links', () => {
    expect(() => judgeNewPost(topic(10), veteran(), history(), limits({ holdFirstPosts: 1 }), now)).not.to.throw();
    expect(() => judgeNewPost(topic(10), trusted(), null, limits(), now)).not.to.throw();
    expect(() => judgeNewPost(topic(10), admin({ joinedAt: now }), null, limits(), now)).not.to.throw();
  });

  it('refuses a new account’s body posted again in another topic', () => {
    const error = caught(() => judgeNewPost(reply(), author(), history({ repeated: true }), limits(), now));
    expect(error).to.be.instanceOf(RuleViolated);
    expect((error as RuleViolated).message).to.match(/^Validation failed: .*already posted/);
  });

  it('checks the daily limit first, then the links, then the repeated body', () => {
    const all = history({ recent: 3, repeated: true });
    expect(() => judgeNewPost(topic(5), author(), all, limits(), now)).to.throw(TooManyRequests);
    expect(() => judgeNewPost(topic(5), author(), { ...all, recent: 0 }, limits(), now)).to.throw(RuleViolated, /5 links/);
    expect(() => judgeNewPost(topic(0), author(), { ...all, recent: 0 }, limits(), now)).to.throw(RuleViolated, /already posted/);
  });

  it('never limits an administrator in their first day', () => {
    expect(
      judgeNewPost(topic(9), admin({ joinedAt: now }), history({ recent: 99, repeated: true }), limits(), now),
    ).to.deep.equal({ held: false });
  });
});

describe('judgeNewPost: holds', () => {
  it('never holds with holdFirstPosts 0', () => {
    expect(judgeNewPost(topic(), author(), history({ published: 0 }), limits({ holdFirstPosts: 0 }), now)).to.deep.equal({
      held: false,
    });
  });

  it('holds a self-registered account’s posts until N were published', () => {
    const hold2 = limits({ holdFirstPosts: 2 });
    expect(judgeNewPost(topic(), author(), history({ published: 0 }), hold2, now).held).to.equal(true);
    expect(judgeNewPost(reply(), author(), history({ published: 1 }), hold2, now).held).to.equal(true);
    expect(judgeNewPost(reply(), author(), history({ published: 2 }), hold2, now).held).to.equal(false);
    expect(judgeNewPost(topic(), author(), history({ published: 3 }), hold2, now).held).to.equal(false);
  });

  it('keeps holding after the account’s first day while fewer than N were published', () => {
    const hold3 = limits({ holdFirstPosts: 3 });
    expect(judgeNewPost(topic(10), veteran(), history({ published: 2 }), hold3, now).held).to.equal(true);
    expect(judgeNewPost(topic(10), veteran(), history({ published: 3 }), hold3, now).held).to.equal(false);
  });

  it('never holds an administrator’s post', () => {
    expect(judgeNewPost(topic(), admin({ joinedAt: now }), null, limits({ holdFirstPosts: 5 }), now).held).to.equal(false);
    expect(
      judgeNewPost(topic(), admin({ joinedAt: now }), history({ published: 0 }), limits({ holdFirstPosts: 5 }), now).held,
    ).to.equal(false);
  });

  it('never holds a trusted account’s post, even its first', () => {
    expect(judgeNewPost(topic(), trusted({ joinedAt: now }), null, limits({ holdFirstPosts: 5 }), now).held).to.equal(false);
    expect(
      judgeNewPost(reply(), trusted({ joinedAt: now }), history({ published: 0 }), limits({ holdFirstPosts: 5 }), now).held,
    ).to.equal(false);
  });

  it('refuses before it holds: a post over the limits is not held but refused', () => {
    expect(() =>
      judgeNewPost(topic(), author(), history({ recent: 3, published: 0 }), limits({ holdFirstPosts: 2 }), now),
    ).to.throw(TooManyRequests);
  });
});

describe('judgeEdit', () => {
  it(`refuses an edit that leaves more than ${NEW_ACCOUNT_LINKS} links in a new account’s post`, () => {
    expect(() => judgeEdit({ links: NEW_ACCOUNT_LINKS }, author(), now)).not.to.throw();
    expect(() => judgeEdit({ links: NEW_ACCOUNT_LINKS + 1 }, author(), now)).to.throw(RuleViolated, /links/);
  });

  it('lets older, trusted and administrators’ accounts edit in any number of links', () => {
    expect(() => judgeEdit({ links: 10 }, author({ joinedAt: ago(24 * HOUR) }), now)).not.to.throw();
    expect(() => judgeEdit({ links: 10 }, trusted({ joinedAt: now }), now)).not.to.throw();
    expect(() => judgeEdit({ links: 10 }, admin({ joinedAt: now }), now)).not.to.throw();
  });
});
