import type { Viewer } from '../users/role.js';

/**
 * Every permission rule of the forum, in one place, used by the HTTP API, forumctl and the read models
 * (which show the caller's abilities). Administrators may do everything; blocked users may read, follow,
 * favorite and like, but not write.
 */

/** A record with an author. */
export interface Owned {
  readonly userId: number;
}

/** What the rules need to know of a topic. */
export interface TopicFacts extends Owned {
  /** Visible replies written by someone other than the topic's author. */
  readonly hasRepliesFromOthers: boolean;
}

/** What the rules need to know of a reply. */
export interface ReplyFacts extends Owned {
  /** System events (ban, close, …) are never edited or deleted by hand. */
  readonly isSystemEvent: boolean;
}

export interface TopicAbilities {
  update: boolean;
  destroy: boolean;
  ban: boolean;
  excellent: boolean;
  unexcellent: boolean;
  close: boolean;
  open: boolean;
}

export interface ReplyAbilities {
  update: boolean;
  destroy: boolean;
}

const isAdmin = (viewer: Viewer | null): boolean => viewer?.role === 'admin';
const canWrite = (viewer: Viewer | null): viewer is Viewer => viewer !== null && viewer.role !== 'blocked';
const writesOwn = (viewer: Viewer | null, ownerId: number): boolean => canWrite(viewer) && viewer.id === ownerId;

export const policy = {
  createTopic: (viewer: Viewer | null): boolean => canWrite(viewer),
  updateTopic: (viewer: Viewer | null, topic: Owned): boolean => isAdmin(viewer) || writesOwn(viewer, topic.userId),
  destroyTopic: (viewer: Viewer | null, topic: TopicFacts): boolean =>
    isAdmin(viewer) || (writesOwn(viewer, topic.userId) && !topic.hasRepliesFromOthers),
  banTopic: (viewer: Viewer | null): boolean => isAdmin(viewer),
  /** Also covers unexcellent / normal. */
  gradeTopic: (viewer: Viewer | null): boolean => isAdmin(viewer),
  /** Also covers open. */
  closeTopic: (viewer: Viewer | null, topic: Owned): boolean => isAdmin(viewer) || writesOwn(viewer, topic.userId),
  /** Moving a topic to a locked node, or locking it, is an administrator's act. */
  changeLockedNode: (viewer: Viewer | null): boolean => isAdmin(viewer),

  createReply: (viewer: Viewer | null): boolean => canWrite(viewer),
  /** Images are uploaded to be shown in what one writes. */
  uploadPhoto: (viewer: Viewer | null): boolean => canWrite(viewer),
  updateReply: (viewer: Viewer | null, reply: ReplyFacts): boolean =>
    !reply.isSystemEvent && (isAdmin(viewer) || writesOwn(viewer, reply.userId)),
  destroyReply: (viewer: Viewer | null, reply: ReplyFacts): boolean =>
    !reply.isSystemEvent && (isAdmin(viewer) || writesOwn(viewer, reply.userId)),

  topicAbilities(viewer: Viewer | null, topic: TopicFacts): TopicAbilities {
    return {
      update: policy.updateTopic(viewer, topic),
      destroy: policy.destroyTopic(viewer, topic),
      ban: policy.banTopic(viewer),
      excellent: policy.gradeTopic(viewer),
      unexcellent: policy.gradeTopic(viewer),
      close: policy.closeTopic(viewer, topic),
      open: policy.closeTopic(viewer, topic),
    };
  },

  replyAbilities(viewer: Viewer | null, reply: ReplyFacts): ReplyAbilities {
    return { update: policy.updateReply(viewer, reply), destroy: policy.destroyReply(viewer, reply) };
  },
};

/** Messages the contract wants shown with these refusals. */
export const DENIED = {
  createTopic: 'The current user does not have permission to create topics.',
  createReply: 'The current user does not have permission to reply to topics.',
  banTopic: 'The current user does not have permission to ban topics.',
  uploadPhoto: 'The current user does not have permission to upload photos.',
} as const;
