import { expect } from 'chai';
import { policy } from '../../src/domain/shared/policy.js';
import type { Viewer } from '../../src/domain/users/role.js';

const admin: Viewer = { id: 1, role: 'admin' };
const owner: Viewer = { id: 2, role: 'member' };
const other: Viewer = { id: 3, role: 'member' };
const blockedOwner: Viewer = { id: 2, role: 'blocked' };
const topic = { userId: 2, hasRepliesFromOthers: false };
const answered = { userId: 2, hasRepliesFromOthers: true };

describe('policy: topic abilities per role', () => {
  it('gives an anonymous caller no ability', () => {
    expect(Object.values(policy.topicAbilities(null, topic))).to.deep.equal([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(policy.createTopic(null)).to.equal(false);
  });

  it('gives an administrator every ability, on anyone’s topic', () => {
    expect(policy.topicAbilities(admin, answered)).to.deep.equal({
      update: true,
      destroy: true,
      ban: true,
      normal: true,
      excellent: true,
      unexcellent: true,
      close: true,
      open: true,
    });
  });

  it('lets an owner update, close and open, and destroy only while nobody else replied', () => {
    expect(policy.topicAbilities(owner, topic)).to.deep.equal({
      update: true,
      destroy: true,
      ban: false,
      normal: false,
      excellent: false,
      unexcellent: false,
      close: true,
      open: true,
    });
    expect(policy.topicAbilities(owner, answered).destroy).to.equal(false);
  });

  it('gives another member nothing on the topic, but lets them create topics and replies', () => {
    expect(Object.values(policy.topicAbilities(other, topic)).some(Boolean)).to.equal(false);
    expect(policy.createTopic(other)).to.equal(true);
    expect(policy.createReply(other)).to.equal(true);
  });

  it('lets a blocked user write nothing, not even on their own topic', () => {
    expect(policy.createTopic(blockedOwner)).to.equal(false);
    expect(policy.createReply(blockedOwner)).to.equal(false);
    expect(Object.values(policy.topicAbilities(blockedOwner, topic)).some(Boolean)).to.equal(false);
  });
});

describe('policy: replies', () => {
  it('lets the author and administrators edit and delete a reply', () => {
    const reply = { userId: 2, isSystemEvent: false, deleted: false };
    expect(policy.replyAbilities(owner, reply)).to.deep.equal({ update: true, destroy: true });
    expect(policy.replyAbilities(admin, reply)).to.deep.equal({ update: true, destroy: true });
    expect(policy.replyAbilities(other, reply)).to.deep.equal({ update: false, destroy: false });
    expect(policy.replyAbilities(blockedOwner, reply)).to.deep.equal({ update: false, destroy: false });
  });

  it('never lets a member edit a system event, nor anyone act on it', () => {
    const event = { userId: 2, isSystemEvent: true };
    expect(policy.replyAbilities(owner, { ...event, deleted: false })).to.deep.equal({ update: false, destroy: false });
    expect(policy.updateReply(admin, event)).to.equal(false);
    expect(policy.destroyReply(admin, event)).to.equal(false);
  });

  it('shows an administrator every ability on every reply, deleted and system ones included (contract §5)', () => {
    expect(policy.replyAbilities(admin, { userId: 1, isSystemEvent: true, deleted: false })).to.deep.equal({
      update: true,
      destroy: true,
    });
    expect(policy.replyAbilities(admin, { userId: 3, isSystemEvent: false, deleted: true })).to.deep.equal({
      update: true,
      destroy: true,
    });
    expect(policy.replyAbilities(owner, { userId: 2, isSystemEvent: false, deleted: true })).to.deep.equal({
      update: false,
      destroy: false,
    });
  });
});

describe('policy: users', () => {
  it('shows user abilities to administrators only', () => {
    expect(policy.userAbilities(admin)).to.deep.equal({ update: true, destroy: true });
    expect(policy.userAbilities(owner)).to.deep.equal({ update: false, destroy: false });
    expect(policy.userAbilities(null)).to.deep.equal({ update: false, destroy: false });
  });
});
