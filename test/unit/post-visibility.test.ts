import { expect } from 'chai';
import { OPEN_NODE } from '../../src/domain/nodes/access.js';
import { Reply } from '../../src/domain/replies/reply.js';
import { RuleViolated } from '../../src/domain/shared/errors.js';
import type { Visibility } from '../../src/domain/shared/post.js';
import { READERS, readerOf, replyVisibleTo, topicVisibleTo } from '../../src/domain/visibility/visibility.js';
import { TOPIC_HELD, Topic } from '../../src/domain/topics/topic.js';
import type { Viewer } from '../../src/domain/users/role.js';

const now = new Date('2026-11-21T08:00:00.000Z');
const later = new Date('2026-11-22T10:30:00.000Z');

const authorId = 2;
const author: Viewer = { id: authorId, role: 'member' };
const other: Viewer = { id: 3, role: 'member' };
const admin: Viewer = { id: 1, role: 'admin' };
const blockedAuthor: Viewer = { id: authorId, role: 'blocked' };

/** A topic as opened, then given `visibility` when one is said. */
function topic(visibility?: Visibility): Topic {
  const topic = Topic.open({ userId: authorId, nodeId: 4, title: 'Title', body: 'Body', bodyHtml: '<p>Body</p>' }, now);
  topic.id = 11;
  if (visibility) topic.visibility = visibility;
  return topic;
}

/** A reply as written, then given `visibility` when one is said. */
function reply(visibility?: Visibility): Reply {
  const reply = Reply.write({ topicId: 11, userId: authorId, body: 'Hi', bodyHtml: '<p>Hi</p>' }, now);
  reply.id = 40;
  if (visibility) reply.visibility = visibility;
  return reply;
}

/** Whether `viewer` opens a post of `authorId` as it is (READERS.post), as a topic and as a reply alike. */
function seesPost(viewer: Viewer | null, post: { userId: number; visibility: Visibility }): boolean {
  const reader = readerOf(viewer);
  const node = { hidden: false, access: OPEN_NODE };
  const asTopic = topicVisibleTo(READERS.post, reader, { ...post, deleted: false, banned: false, nodeId: 4, node });
  const asReply = replyVisibleTo(READERS.post, reader, { ...post, deleted: false, systemEvent: false });
  expect(asTopic, 'a topic and a reply alike').to.equal(asReply);
  return asTopic;
}

describe('the visibility policy: who opens a held or hidden post (READERS.post)', () => {
  it('shows a public post to everyone, anonymous callers included', () => {
    const post = { userId: authorId, visibility: 'public' as const };
    for (const viewer of [null, other, author, admin]) expect(seesPost(viewer, post)).to.equal(true);
  });

  for (const visibility of ['held', 'hidden'] as const) {
    it(`shows a ${visibility} post only to its author and administrators`, () => {
      const post = { userId: authorId, visibility };
      expect(seesPost(null, post), 'anonymous').to.equal(false);
      expect(seesPost(other, post), 'another member').to.equal(false);
      expect(seesPost({ id: 3, role: 'blocked' }, post), 'another, blocked').to.equal(false);
      expect(seesPost(author, post), 'its author').to.equal(true);
      expect(seesPost(blockedAuthor, post), 'its author, blocked').to.equal(true);
      expect(seesPost(admin, post), 'an administrator').to.equal(true);
    });
  }
});

describe('Topic and Reply: visibility changes', () => {
  const makers = { Topic: topic, Reply: reply };
  for (const [name, make] of Object.entries(makers)) {
    describe(name, () => {
      it('starts public', () => {
        const post = make();
        expect(post.visibility).to.equal('public');
        expect(post.isPublic()).to.equal(true);
        expect(post.isHeld()).to.equal(false);
      });

      it('is held by hold()', () => {
        const post = make();
        post.hold();
        expect(post.visibility).to.equal('held');
        expect(post.isHeld()).to.equal(true);
        expect(post.isPublic()).to.equal(false);
      });

      it('hides a public post, reporting the change once', () => {
        const post = make('public');
        expect(post.hide()).to.equal(true);
        expect(post.visibility).to.equal('hidden');
        expect(post.hide()).to.equal(false);
        expect(post.visibility).to.equal('hidden');
      });

      it('does not hide a held post', () => {
        const post = make('held');
        expect(post.hide()).to.equal(false);
        expect(post.visibility).to.equal('held');
      });

      it('shows a hidden post again, reporting the change once', () => {
        const post = make('hidden');
        expect(post.unhide()).to.equal(true);
        expect(post.visibility).to.equal('public');
        expect(post.unhide()).to.equal(false);
        expect(post.visibility).to.equal('public');
      });

      it('does not make a held post public by unhiding it', () => {
        const post = make('held');
        expect(post.unhide()).to.equal(false);
        expect(post.visibility).to.equal('held');
      });

      it('publishes a held post as if posted now', () => {
        const post = make('held');
        expect(post.publish(later)).to.equal(true);
        expect(post.visibility).to.equal('public');
        expect(post.createdAt).to.equal(later);
        expect(post.updatedAt).to.equal(later);
        expect(post.publish(later)).to.equal(false);
      });

      for (const visibility of ['public', 'hidden'] as const) {
        it(`does not publish a ${visibility} post, nor touch its times`, () => {
          const post = make(visibility);
          expect(post.publish(later)).to.equal(false);
          expect(post.visibility).to.equal(visibility);
          expect(post.createdAt).to.equal(now);
          expect(post.updatedAt).to.equal(now);
        });
      }
    });
  }

  it('makes a published topic active now too', () => {
    const held = topic('held');
    expect(held.publish(later)).to.equal(true);
    expect(held.lastActiveAt).to.equal(later);
    const hidden = topic('hidden');
    expect(hidden.publish(later)).to.equal(false);
    expect(hidden.lastActiveAt).to.equal(now);
  });
});

describe('Topic: a held topic waits for approval', () => {
  const refusals: Record<string, (topic: Topic) => unknown> = {
    ban: (t) => t.ban(1, later),
    regrade: (t) => t.regrade('excellent', later),
    close: (t) => t.close(later),
    reopen: (t) => t.reopen(later),
    pin: (t) => t.pin(later),
  };

  for (const [name, act] of Object.entries(refusals)) {
    it(`refuses ${name} with TOPIC_HELD and changes nothing`, () => {
      const held = topic('held');
      if (name === 'reopen') held.closedAt = now;
      const before = { ...held };
      expect(() => act(held)).to.throw(RuleViolated, TOPIC_HELD);
      expect({ ...held }).to.deep.equal(before);
    });
  }

  it('lets its author edit it', () => {
    const held = topic('held');
    held.edit({ title: 'Better', body: 'More', bodyHtml: '<p>More</p>' }, later);
    expect(held).to.include({ title: 'Better', body: 'More', visibility: 'held' });
    expect(held.updatedAt).to.equal(later);
  });

  it('lets it change node', () => {
    const held = topic('held');
    expect(held.requestNode(6, false, later)).to.equal(true);
    expect(held).to.include({ nodeId: 6, visibility: 'held' });
  });

  it('takes moderation again once published', () => {
    const held = topic('held');
    held.publish(later);
    expect(held.close(later)).to.equal(true);
    expect(held.pin(later)).to.equal(true);
    expect(held.regrade('excellent', later)).to.equal(true);
    expect(held.ban(1, later)).to.equal(true);
  });

  it('refuses moderation only while held: a hidden topic can still be closed', () => {
    expect(topic('hidden').close(later)).to.equal(true);
  });
});
