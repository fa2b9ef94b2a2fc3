import { expect } from 'chai';
import {
  replyCreated,
  replyDeleted,
  replyUpdated,
  topicCreated,
  topicDeleted,
  topicMoved,
  topicUpdated,
} from '../../src/domain/events.js';
import { Reply } from '../../src/domain/replies/reply.js';
import type { Visibility } from '../../src/domain/shared/post.js';
import { Topic } from '../../src/domain/topics/topic.js';

const now = new Date('2026-11-21T08:00:00.000Z');
const later = new Date('2026-11-22T10:30:00.000Z');
const admin = { id: 1, role: 'admin' as const };

function topic(visibility: Visibility = 'public'): Topic {
  const topic = Topic.open({ userId: 2, nodeId: 4, title: 'Title', body: 'Body', bodyHtml: '<p>Body</p>' }, now);
  topic.id = 11;
  topic.visibility = visibility;
  return topic;
}

function reply(visibility: Visibility = 'public'): Reply {
  const reply = Reply.write({ topicId: 11, userId: 3, body: 'Hi @bob', bodyHtml: '<p>Hi @bob</p>' }, now);
  reply.id = 40;
  reply.visibility = visibility;
  return reply;
}

describe('events of a topic: a post that is not yet public sets off nothing', () => {
  it('records a public topic as created', () => {
    expect(topicCreated(topic(), ['bob'])).to.deep.equal({
      type: 'topic.created',
      topicId: 11,
      userId: 2,
      nodeId: 4,
      mentions: ['bob'],
      title: 'Title',
      bodyHtml: '<p>Body</p>',
      createdAt: now,
      at: now,
    });
  });

  it('records a held topic as held only', () => {
    expect(topicCreated(topic('held'), ['bob'])).to.deep.equal({
      type: 'post.held',
      targetType: 'Topic',
      targetId: 11,
      topicId: 11,
      userId: 2,
    });
  });

  it('records an approved topic as created at the moment it was published', () => {
    const held = topic('held');
    held.publish(later);
    expect(topicCreated(held, [])).to.deep.include({ type: 'topic.created', topicId: 11, createdAt: later, at: later });
  });

  it('records nothing of a held topic’s edit or move', () => {
    const held = topic('held');
    held.edit({ title: 'New', body: 'New', bodyHtml: '<p>New</p>' }, later);
    expect(topicUpdated(held)).to.equal(null);
    held.requestNode(6, false, later);
    expect(topicMoved(held, 4, admin)).to.equal(null);
  });

  for (const visibility of ['public', 'hidden'] as const) {
    it(`records the edit and move of a ${visibility} topic`, () => {
      const post = topic(visibility);
      expect(topicUpdated(post)).to.deep.equal({
        type: 'topic.updated',
        topicId: 11,
        title: 'Title',
        bodyHtml: '<p>Body</p>',
        createdAt: now,
        at: now,
      });
      post.requestNode(6, true, later);
      expect(topicMoved(post, 4, admin)).to.deep.equal({
        type: 'topic.moved',
        topicId: 11,
        ownerId: 2,
        fromNodeId: 4,
        toNodeId: 6,
        actorId: 1,
        byAdmin: true,
      });
    });
  }

  it('records a held topic’s deletion as discarded, by whom', () => {
    expect(topicDeleted(topic('held'), 1)).to.deep.equal({
      type: 'post.discarded',
      actorId: 1,
      targetType: 'Topic',
      targetId: 11,
      topicId: 11,
      userId: 2,
    });
  });

  for (const visibility of ['public', 'hidden'] as const) {
    it(`records a ${visibility} topic’s deletion as deleted`, () => {
      expect(topicDeleted(topic(visibility), 1)).to.deep.equal({
        type: 'topic.deleted',
        topicId: 11,
        ownerId: 2,
        nodeId: 4,
        actorId: 1,
      });
    });
  }
});

describe('events of a reply: a post that is not yet public sets off nothing', () => {
  it('records a public reply as created', () => {
    expect(replyCreated(reply(), ['bob'])).to.deep.equal({
      type: 'reply.created',
      replyId: 40,
      topicId: 11,
      userId: 3,
      mentions: ['bob'],
      bodyHtml: '<p>Hi @bob</p>',
      createdAt: now,
      at: now,
    });
  });

  it('records a held reply as held only', () => {
    expect(replyCreated(reply('held'), ['bob'])).to.deep.equal({
      type: 'post.held',
      targetType: 'Reply',
      targetId: 40,
      topicId: 11,
      userId: 3,
    });
  });

  it('records an approved reply as created at the moment it was published', () => {
    const held = reply('held');
    held.publish(later);
    expect(replyCreated(held, [])).to.deep.include({ type: 'reply.created', replyId: 40, createdAt: later, at: later });
  });

  it('records nothing of a held reply’s edit', () => {
    const held = reply('held');
    held.edit('Edited', '<p>Edited</p>', later);
    expect(replyUpdated(held)).to.equal(null);
  });

  for (const visibility of ['public', 'hidden'] as const) {
    it(`records the edit of a ${visibility} reply`, () => {
      const post = reply(visibility);
      post.edit('Edited', '<p>Edited</p>', later);
      expect(replyUpdated(post)).to.deep.equal({
        type: 'reply.updated',
        replyId: 40,
        topicId: 11,
        bodyHtml: '<p>Edited</p>',
        createdAt: now,
        at: later,
      });
    });
  }

  it('records a held reply’s deletion as discarded, by whom', () => {
    expect(replyDeleted(reply('held'), 3)).to.deep.equal({
      type: 'post.discarded',
      actorId: 3,
      targetType: 'Reply',
      targetId: 40,
      topicId: 11,
      userId: 3,
    });
  });

  for (const visibility of ['public', 'hidden'] as const) {
    it(`records a ${visibility} reply’s deletion as deleted`, () => {
      expect(replyDeleted(reply(visibility), 1)).to.deep.equal({
        type: 'reply.deleted',
        replyId: 40,
        topicId: 11,
        userId: 3,
        createdAt: now,
        actorId: 1,
      });
    });
  }
});
