import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { type PostRef, replyDeleted, replyRef, topicDeleted, topicRef } from '../../domain/events.js';
import { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import { NotFound } from '../../domain/shared/errors.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { Viewer } from '../../domain/users/role.js';
import {
  ANONYMOUS,
  READERS,
  readerOf,
  replyFacts,
  replyVisibleTo,
  topicFacts,
  topicVisibleTo,
} from '../../domain/visibility/visibility.js';
import type { DomainEvents } from '../events.js';
import type { Clock } from '../ports.js';
import { loadReply } from '../replies/load.js';
import { loadTopic } from '../topics/load.js';
import type { ConversationStore } from '../conversations/ports.js';
import { admits } from '../conversations/write-conversations.js';

/** A topic or a reply: what flags, holds and review act on alike (contract §18). */
export type AnyPost = Topic | Reply;

/** A post as a request names it. */
export interface PostTarget {
  type: 'topic' | 'reply';
  id: number;
}

/**
 * Topics and replies where they are handled alike: found, named, saved, and deleted, whoever asks (its author, a
 * moderator, a review). Deleting is soft, recorded with who did it, and its event is recorded, from which its
 * notifications, counters, search, webhooks and the review queue follow (a held post's deletion sets off nothing but its
 * discard: domain/events.ts). Inside the caller's unit of work; the caller checks the permission and keeps the audit
 * entry its act needs.
 */
export class Posts {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly replies: ReplyRepository,
    private readonly conversations: ConversationStore,
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * A post `viewer` may see (404 otherwise); a system event is no post. A private message (contract §24) is seen by
   * its conversation's participants (the visibility policy's conversation reader), as a topic's post by its readers.
   */
  async load(target: PostTarget, viewer: Viewer): Promise<AnyPost> {
    const message = await this.message(target, viewer);
    if (message) return message;
    if (target.type === 'topic') return loadTopic(this.topics, this.nodes, target.id, viewer);
    const { reply } = await loadReply(this.replies, this.topics, this.nodes, target.id, viewer);
    if (reply.isSystemEvent()) throw new NotFound('reply');
    return reply;
  }

  /** The message `target` names, when it names one of a conversation: null for a post of the forum. */
  private async message(target: PostTarget, viewer: Viewer): Promise<AnyPost | null> {
    const reply = target.type === 'reply' ? await this.replies.find(target.id) : null;
    const conversationId = target.type === 'topic' ? target.id : reply?.topicId;
    if (conversationId === undefined) return null;
    const place = await this.conversations.place(conversationId, viewer.id);
    if (!place) return null;
    if (!admits(place, viewer)) throw new NotFound('conversation');
    if (!reply) {
      const opening = await this.topics.find(conversationId);
      if (!opening) throw new NotFound('conversation');
      return opening;
    }
    const shown = replyVisibleTo(READERS.conversation, readerOf(viewer), replyFacts(reply));
    if (!shown || reply.isSystemEvent()) throw new NotFound('reply');
    return reply;
  }

  /** The post review names, while it is kept (READERS.kept: not deleted), a private message's too. */
  async find(ref: Pick<PostRef, 'targetType' | 'targetId'>): Promise<AnyPost | null> {
    if (ref.targetType === 'Topic') {
      const topic = await this.topics.find(ref.targetId);
      return topic && topicVisibleTo(READERS.kept, ANONYMOUS, topicFacts(topic)) ? topic : null;
    }
    const reply = await this.replies.find(ref.targetId);
    return reply && replyVisibleTo(READERS.kept, ANONYMOUS, replyFacts(reply)) ? reply : null;
  }

  /** The node the post is in (its topic's, deleted or not); null when its topic is gone. */
  async nodeIdOf(ref: Pick<PostRef, 'targetType' | 'targetId'>): Promise<number | null> {
    const topicId = ref.targetType === 'Topic' ? ref.targetId : (await this.replies.find(ref.targetId))?.topicId;
    const topic = topicId === undefined ? null : await this.topics.find(topicId);
    return topic?.nodeId ?? null;
  }

  ref(post: AnyPost): PostRef {
    return post instanceof Reply ? replyRef(post) : topicRef(post);
  }

  /** Writes a changed post now (a topic, a loaded aggregate, would be written with the unit of work anyway). */
  async save(post: AnyPost): Promise<void> {
    if (post instanceof Reply) await this.replies.save(post);
  }

  /**
   * Deletes every post of an author as `actorId` (a spammer's), one by one as by hand, so that each moves its counters
   * and drops its notifications: replies first (a topic's deletion hides its replies, but theirs must go too). The
   * forum's posts only (`authoredBy`): a conversation does not exist outside its participants (contract §24), and an
   * administrator reaches a message of one only when a participant flags it.
   */
  async removeAllOf(authorId: number, actorId: number): Promise<{ topics: number; replies: number }> {
    const replies = await this.replies.authoredBy(authorId);
    for (const reply of replies) await this.remove(reply, actorId);
    const topics = await this.topics.authoredBy(authorId);
    for (const topic of topics) await this.remove(topic, actorId);
    return { topics: topics.length, replies: replies.length };
  }

  /**
   * Deletes the post as `actorId`; returns when. A private message's deletion (a reviewer agreeing with its flags) is
   * `message.deleted`, which the forum's effects (its counters, its notifications) do not follow.
   */
  async remove(post: AnyPost, actorId: number): Promise<Date> {
    const now = this.clock.now();
    post.softDelete(actorId, now);
    const conversationId = post instanceof Reply ? post.topicId : post.id;
    const inConversation =
      post instanceof Reply ? (await this.conversations.place(conversationId, actorId)) !== null : post.nodeId === null;
    if (inConversation) {
      if (post instanceof Reply) await this.replies.save(post);
      await this.events.record({
        type: 'message.deleted',
        topicId: conversationId,
        replyId: post instanceof Reply ? post.id : null,
        actorId,
      });
      return now;
    }
    if (post instanceof Reply) {
      await this.replies.save(post);
      await this.events.record(replyDeleted(post, actorId));
    } else {
      await this.events.record(topicDeleted(post, actorId));
    }
    return now;
  }
}
