import { expect } from 'chai';
import type { NewPost } from '../../src/application/review/posting-rules.js';
import type { Author, PostKind, PostingHistory } from '../../src/domain/review/posting.js';
import { Forbidden, NotFound, RuleViolated, TooManyRequests } from '../../src/domain/shared/errors.js';
import { FakePostingFacts, fixedClock, postingRules } from '../support/fakes.js';

const HOUR = 3_600_000;
const now = fixedClock.now();
const ago = (ms: number) => new Date(now.getTime() - ms);

type HistoryCall = [
  number,
  { kind: PostKind; body: string; topicId: number | null },
  { since: Date; newAccount: boolean; publishedUpTo: number },
];

/** FakePostingFacts that remembers each time the history was read, and with what. */
class CountingFacts extends FakePostingFacts {
  readonly historyCalls: HistoryCall[] = [];
  missing = false;
  override async author(userId: number): Promise<Author> {
    return this.missing ? (null as unknown as Author) : super.author(userId);
  }
  override async history(...args: unknown[]): Promise<PostingHistory> {
    this.historyCalls.push(args as HistoryCall);
    return super.history();
  }
}

const limits = (holdFirstPosts = 0) => ({ holdFirstPosts, topicsPerDay: 3, repliesPerDay: 20, messagesPerDay: 5 });
const newPost = (changes: Partial<NewPost> = {}): NewPost => ({
  kind: 'reply',
  body: 'Hello',
  topicId: 9,
  links: 0,
  ...changes,
});

async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, none came');
}

/** Facts with user 7 as given (user 8 stays trusted, as the fake's default). */
function factsWith(author: Partial<Author>, past: Partial<PostingHistory> = {}): CountingFacts {
  const facts = new CountingFacts();
  facts.authors.set(7, author);
  facts.past = { recent: 0, published: 0, repeated: false, ...past };
  return facts;
}

describe('PostingRules#judge', () => {
  it('reads no history for a trusted account’s post', async () => {
    const facts = factsWith({});
    const rules = postingRules(facts, limits(5));
    expect(await rules.judge(await rules.author(7), newPost({ links: 9 }))).to.deep.equal({ held: false });
    expect(facts.historyCalls).to.have.length(0);
  });

  it('reads no history for an administrator’s post, even one who signed up in the last hour', async () => {
    const facts = factsWith({ role: 'admin', selfRegistered: true, joinedAt: ago(HOUR) });
    const rules = postingRules(facts, limits(5));
    expect(await rules.judge(await rules.author(7), newPost())).to.deep.equal({ held: false });
    expect(facts.historyCalls).to.have.length(0);
  });

  it('reads no history for an account past its first day that signed up itself, when holds are off', async () => {
    const facts = factsWith({ selfRegistered: true, joinedAt: ago(48 * HOUR) });
    const rules = postingRules(facts, limits(0));
    expect(await rules.judge(await rules.author(7), newPost())).to.deep.equal({ held: false });
    expect(facts.historyCalls).to.have.length(0);
  });

  it('reads a new account’s history once, for its last 24 hours, with the post', async () => {
    const facts = factsWith({ selfRegistered: true, joinedAt: ago(HOUR) });
    const rules = postingRules(facts, limits(2));
    const post = newPost({ kind: 'topic', body: 'First!', topicId: null });
    await rules.judge(await rules.author(7), post);
    expect(facts.historyCalls).to.have.length(1);
    const [userId, asked, options] = facts.historyCalls[0]!;
    expect(userId).to.equal(7);
    expect(asked).to.include({ kind: 'topic', body: 'First!', topicId: null });
    expect(options).to.deep.equal({ since: ago(24 * HOUR), newAccount: true, publishedUpTo: 2 });
  });

  it('reads the history of an older account that signed up itself when holds are on, as no longer new', async () => {
    const facts = factsWith({ selfRegistered: true, joinedAt: ago(48 * HOUR) });
    const rules = postingRules(facts, limits(3));
    await rules.judge(await rules.author(7), newPost());
    expect(facts.historyCalls).to.have.length(1);
    expect(facts.historyCalls[0]![2]).to.include({ newAccount: false, publishedUpTo: 3 });
  });

  it('holds a post while fewer than holdFirstPosts were published, as the domain says', async () => {
    const facts = factsWith({ selfRegistered: true, joinedAt: ago(48 * HOUR) }, { published: 1 });
    const rules = postingRules(facts, limits(2));
    const author = await rules.author(7);
    expect(await rules.judge(author, newPost())).to.deep.equal({ held: true });
    facts.past = { ...facts.past, published: 2 };
    expect(await rules.judge(author, newPost())).to.deep.equal({ held: false });
  });

  it('refuses what the domain refuses: a new account over its daily limit, by the clock', async () => {
    const facts = factsWith({ selfRegistered: true, joinedAt: ago(HOUR) }, { recent: 20 });
    const rules = postingRules(facts);
    const error = await rejection(rules.judge(await rules.author(7), newPost({ kind: 'reply' })));
    expect(error).to.be.instanceOf(TooManyRequests);
    expect((error as TooManyRequests).retryAfterSeconds).to.equal(23 * 3600);
  });

  it('refuses a new account’s post with too many links', async () => {
    const rules = postingRules(factsWith({ selfRegistered: true, joinedAt: ago(HOUR) }));
    const error = await rejection(rules.judge(await rules.author(7), newPost({ links: 3 })));
    expect(error).to.be.instanceOf(RuleViolated);
  });
});

describe('PostingRules#requireMayPost', () => {
  it('refuses an account silenced past the clock’s now', async () => {
    const rules = postingRules(factsWith({ silencedUntil: new Date(now.getTime() + 1000) }));
    const author = await rules.author(7);
    expect(() => rules.requireMayPost(author)).to.throw(Forbidden, /silenced/);
  });

  it('lets an account post once its silence ended by the clock', async () => {
    const rules = postingRules(factsWith({ silencedUntil: ago(1000), suspendedUntil: ago(1000) }));
    const author = await rules.author(7);
    expect(() => rules.requireMayPost(author)).not.to.throw();
  });
});

describe('PostingRules#author', () => {
  it('answers the author as the facts know them', async () => {
    const rules = postingRules(factsWith({ selfRegistered: true }));
    expect(await rules.author(7)).to.include({ id: 7, selfRegistered: true });
  });

  it('answers NotFound for an unknown user', async () => {
    const facts = new CountingFacts();
    facts.missing = true;
    expect(await rejection(postingRules(facts).author(7))).to.be.instanceOf(NotFound);
  });
});

describe('PostingRules#judgeEdit', () => {
  it('refuses an edit that leaves a new account’s post with too many links', async () => {
    const rules = postingRules(factsWith({ selfRegistered: true, joinedAt: ago(HOUR) }));
    expect(await rejection(rules.judgeEdit(7, 3))).to.be.instanceOf(RuleViolated);
    await rules.judgeEdit(7, 2);
  });

  it('lets a trusted account edit in any number of links', async () => {
    await postingRules(new CountingFacts()).judgeEdit(8, 10);
  });

  it('reads the editor only when the edit holds more links than a new account may post', async () => {
    const facts = new CountingFacts();
    facts.missing = true;
    await postingRules(facts).judgeEdit(7, 2);
    expect(await rejection(postingRules(facts).judgeEdit(7, 3))).to.be.instanceOf(NotFound);
  });
});
