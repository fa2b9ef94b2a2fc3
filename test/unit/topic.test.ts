import { expect } from 'chai';
import { RuleViolated } from '../../src/domain/shared/errors.js';
import { Topic } from '../../src/domain/topics/topic.js';

const now = new Date('2026-11-21T08:00:00.000Z');
const later = new Date('2026-11-21T09:00:00.000Z');

function topicIn(nodeId: number, lockNode = false): Topic {
  const topic = Topic.open({ userId: 1, nodeId, title: 'Title', body: 'Body', bodyHtml: '<p>Body</p>' }, now);
  topic.lockNode = lockNode;
  return topic;
}

describe('Topic.open', () => {
  it('starts unlocked, normal, open and active now', () => {
    const topic = topicIn(2);
    expect(topic).to.include({ nodeId: 2, lockNode: false, grade: 'normal', closedAt: null, deletedAt: null });
    expect(topic.lastActiveAt).to.equal(now);
  });

  it('refuses a blank title or body as a record validation error', () => {
    expect(() => Topic.open({ userId: 1, nodeId: 2, title: '   ', body: 'b', bodyHtml: '' }, now)).to.throw(
      RuleViolated,
      /Title/,
    );
    expect(() => Topic.open({ userId: 1, nodeId: 2, title: 't', body: '', bodyHtml: '' }, now)).to.throw(RuleViolated, /Body/);
  });

  it('refuses a title over 255 characters', () => {
    expect(() => Topic.open({ userId: 1, nodeId: 2, title: 'x'.repeat(256), body: 'b', bodyHtml: '' }, now)).to.throw(
      RuleViolated,
      /too long/,
    );
  });
});

describe('Topic#requestNode (the node lock table)', () => {
  it('moves the topic and locks its node when an administrator changes the node', () => {
    const topic = topicIn(2);
    expect(topic.requestNode(3, true, later)).to.equal(true);
    expect(topic).to.include({ nodeId: 3, lockNode: true });
  });

  it('leaves node and lock alone when an administrator submits the same node', () => {
    const topic = topicIn(2);
    expect(topic.requestNode(2, true, later)).to.equal(false);
    expect(topic).to.include({ nodeId: 2, lockNode: false });
  });

  it('moves an unlocked topic for a non-administrator without locking it', () => {
    const topic = topicIn(2);
    expect(topic.requestNode(3, false, later)).to.equal(true);
    expect(topic).to.include({ nodeId: 3, lockNode: false });
  });

  it('keeps a locked topic where it is for a non-administrator', () => {
    const topic = topicIn(2, true);
    expect(topic.requestNode(3, false, later)).to.equal(false);
    expect(topic).to.include({ nodeId: 2, lockNode: true });
  });

  it('lets an administrator move a locked topic', () => {
    const topic = topicIn(2, true);
    expect(topic.requestNode(3, true, later)).to.equal(true);
    expect(topic).to.include({ nodeId: 3, lockNode: true });
  });
});

describe('Topic#ban', () => {
  it('moves the topic to the no-point node and locks it', () => {
    const topic = topicIn(2);
    expect(topic.ban(1, later)).to.equal(true);
    expect(topic).to.include({ nodeId: 1, lockNode: true });
    expect(topic.updatedAt).to.equal(later);
  });

  it('reports nothing changed when the topic is banned already', () => {
    const topic = topicIn(2);
    topic.ban(1, later);
    expect(topic.ban(1, later)).to.equal(false);
  });
});

describe('Topic grade, close and delete', () => {
  it('regrades only on a real change', () => {
    const topic = topicIn(2);
    expect(topic.regrade('excellent', later)).to.equal(true);
    expect(topic.regrade('excellent', later)).to.equal(false);
    expect(topic.isExcellent()).to.equal(true);
  });

  it('closes and reopens once each', () => {
    const topic = topicIn(2);
    expect(topic.close(later)).to.equal(true);
    expect(topic.close(later)).to.equal(false);
    expect(topic.closedAt).to.equal(later);
    expect(topic.reopen(later)).to.equal(true);
    expect(topic.reopen(later)).to.equal(false);
    expect(topic.closedAt).to.equal(null);
  });

  it('records who deleted it and when', () => {
    const topic = topicIn(2);
    topic.softDelete(7, later);
    expect(topic).to.include({ deletedById: 7, deletedAt: later });
  });
});
