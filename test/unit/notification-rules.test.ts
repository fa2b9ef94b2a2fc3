import { expect } from 'chai';
import {
  MAX_MENTIONS,
  mentionTargets,
  whoHearsOfMove,
  whoHearsOfReply,
  whoHearsOfTopic,
  whoHearsOfFollow,
} from '../../src/domain/notifications/notification.js';

const ALICE = 1;
const BOB = 2;
const CAROL = 3;
const DAVE = 4;

describe('notification rules: whoHearsOfReply', () => {
  const base = {
    topicId: 10,
    replyId: 20,
    topicAuthorId: ALICE,
    replierId: BOB,
    followerIds: [],
    mentionedIds: [],
    blockedActorFor: [],
    unreadableFor: [],
  };

  it('tells the topic author with a TopicReply', () => {
    expect(whoHearsOfReply(base)).to.deep.equal([{ userId: ALICE, actorId: BOB, type: 'TopicReply', topicId: 10, replyId: 20 }]);
  });

  it('tells the followers too, each once, and never the replier', () => {
    const notes = whoHearsOfReply({ ...base, followerIds: [CAROL, ALICE, BOB, CAROL] });
    expect(notes.map((n) => [n.userId, n.type])).to.deep.equal([
      [ALICE, 'TopicReply'],
      [CAROL, 'TopicReply'],
    ]);
  });

  it('gives the mentioned a Mention instead of a TopicReply', () => {
    const notes = whoHearsOfReply({ ...base, followerIds: [CAROL], mentionedIds: [CAROL, DAVE] });
    expect(notes.map((n) => [n.userId, n.type, n.mentionType])).to.deep.equal([
      [ALICE, 'TopicReply', undefined],
      [CAROL, 'Mention', 'Reply'],
      [DAVE, 'Mention', 'Reply'],
    ]);
  });

  it('does not notify an author replying to their own topic, nor self-mentions', () => {
    expect(whoHearsOfReply({ ...base, replierId: ALICE, mentionedIds: [ALICE] })).to.deep.equal([]);
  });

  it('skips everyone who blocked the replier', () => {
    const notes = whoHearsOfReply({ ...base, followerIds: [CAROL], mentionedIds: [DAVE], blockedActorFor: [ALICE, DAVE] });
    expect(notes.map((n) => n.userId)).to.deep.equal([CAROL]);
  });

  it('skips everyone who may not read where the topic is (contract §23), mentioned or following', () => {
    const notes = whoHearsOfReply({ ...base, followerIds: [CAROL], mentionedIds: [DAVE], unreadableFor: [ALICE, DAVE] });
    expect(notes.map((n) => n.userId)).to.deep.equal([CAROL]);
  });
});

describe('notification rules: mentions', () => {
  it(`notify at most ${MAX_MENTIONS} distinct users, in order, never the author`, () => {
    expect(mentionTargets([5, 6, 5, 1, 7, 8, 9, 10, 11], 1)).to.deep.equal([5, 6, 7, 8, 9]);
  });
});

describe('notification rules: whoHearsOfTopic', () => {
  it("tells the author's followers with Topic, and the mentioned with Mention", () => {
    const notes = whoHearsOfTopic({
      topicId: 10,
      authorId: ALICE,
      authorFollowerIds: [BOB, CAROL],
      mentionedIds: [CAROL],
      blockedActorFor: [],
      unreadableFor: [],
    });
    expect(notes).to.deep.equal([
      { userId: BOB, actorId: ALICE, type: 'Topic', topicId: 10 },
      { userId: CAROL, actorId: ALICE, type: 'Mention', mentionType: 'Topic', topicId: 10 },
    ]);
  });

  it('tells nobody who may not read where the topic is (contract §23)', () => {
    const notes = whoHearsOfTopic({
      topicId: 10,
      authorId: ALICE,
      authorFollowerIds: [BOB, CAROL],
      mentionedIds: [CAROL],
      blockedActorFor: [],
      unreadableFor: [BOB, CAROL],
    });
    expect(notes).to.deep.equal([]);
  });
});

describe('notification rules: whoHearsOfMove and whoHearsOfFollow', () => {
  it('tells the owner when an administrator moves the topic, unless the owner did', () => {
    const move = { topicId: 1, ownerId: ALICE, actorId: BOB, nodeId: 3, ownerMayRead: true };
    expect(whoHearsOfMove(move)).to.have.length(1);
    expect(whoHearsOfMove({ ...move, actorId: ALICE })).to.deep.equal([]);
  });

  it('does not tell an owner who may not read where their topic went (contract §23)', () => {
    expect(whoHearsOfMove({ topicId: 1, ownerId: ALICE, actorId: BOB, nodeId: 3, ownerMayRead: false })).to.deep.equal([]);
  });

  it('tells the followee, unless they blocked the follower', () => {
    expect(whoHearsOfFollow({ followerId: BOB, followeeId: ALICE, blockedActor: false })).to.deep.equal([
      { userId: ALICE, actorId: BOB, type: 'Follow' },
    ]);
    expect(whoHearsOfFollow({ followerId: BOB, followeeId: ALICE, blockedActor: true })).to.deep.equal([]);
  });
});
