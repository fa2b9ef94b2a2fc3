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

/**
 * Where a post is, as the rules need it: whether the viewer moderates its node (contract §23: a member of one of the
 * node's moderator groups, `mayModerate` in domain/nodes/access.ts). Absent: they do not.
 */
export interface Placed {
  readonly moderated?: boolean;
}

/** What the rules need to know of a topic. */
export interface TopicFacts extends Owned, Placed {
  /** Visible replies written by someone other than the topic's author. */
  readonly hasRepliesFromOthers: boolean;
}

/** What the rules need to know of a reply. */
export interface ReplyFacts extends Owned, Placed {
  /** System events (ban, close, …) are never edited or deleted by hand. */
  readonly isSystemEvent: boolean;
}

export interface TopicAbilities {
  update: boolean;
  destroy: boolean;
  ban: boolean;
  normal: boolean;
  excellent: boolean;
  unexcellent: boolean;
  close: boolean;
  open: boolean;
}

export interface ReplyAbilities {
  update: boolean;
  destroy: boolean;
}

/** What the caller may do to a user's account (homeland shows it on every user). */
export interface UserAbilities {
  update: boolean;
  destroy: boolean;
}

const ALL_TOPIC_ABILITIES: TopicAbilities = {
  update: true,
  destroy: true,
  ban: true,
  normal: true,
  excellent: true,
  unexcellent: true,
  close: true,
  open: true,
};
const NO_REPLY_ABILITIES: ReplyAbilities = { update: false, destroy: false };
const ALL_REPLY_ABILITIES: ReplyAbilities = { update: true, destroy: true };

const isAdmin = (viewer: Viewer | null): boolean => viewer?.role === 'admin';
/** Signed in, and not blocked: who may write at all. */
export const canWrite = (viewer: Viewer | null): viewer is Viewer => viewer !== null && viewer.role !== 'blocked';
const writesOwn = (viewer: Viewer | null, ownerId: number): boolean => canWrite(viewer) && viewer.id === ownerId;
/** An administrator, or a moderator of the post's node who may write (contract §23: their acts stop at its edge). */
const moderates = (viewer: Viewer | null, post: Placed = {}): boolean =>
  isAdmin(viewer) || (canWrite(viewer) && post.moderated === true);

export const policy = {
  createTopic: (viewer: Viewer | null): boolean => canWrite(viewer),
  updateTopic: (viewer: Viewer | null, topic: Owned): boolean => isAdmin(viewer) || writesOwn(viewer, topic.userId),
  destroyTopic: (viewer: Viewer | null, topic: TopicFacts): boolean =>
    moderates(viewer, topic) || (writesOwn(viewer, topic.userId) && !topic.hasRepliesFromOthers),
  /** Administrators, and a node's moderators there (contract §23). */
  banTopic: (viewer: Viewer | null, topic?: Placed): boolean => moderates(viewer, topic),
  /** The review queue of flags and holds (contract §18). */
  reviewPosts: (viewer: Viewer | null): boolean => isAdmin(viewer),
  /** Also covers unexcellent / normal. */
  gradeTopic: (viewer: Viewer | null, topic?: Placed): boolean => moderates(viewer, topic),
  /** Pinning to the front page (homeland's suggest), and unpinning. */
  pinTopic: (viewer: Viewer | null, topic?: Placed): boolean => moderates(viewer, topic),
  /** Also covers open. */
  closeTopic: (viewer: Viewer | null, topic: Owned & Placed): boolean =>
    moderates(viewer, topic) || writesOwn(viewer, topic.userId),
  /**
   * Moving a topic to a locked node, or locking it, is an administrator's act, or a node moderator's between nodes
   * they moderate (`topic` then says they moderate both).
   */
  changeLockedNode: (viewer: Viewer | null, topic?: Placed): boolean => moderates(viewer, topic),

  createReply: (viewer: Viewer | null): boolean => canWrite(viewer),
  /** Images are uploaded to be shown in what one writes. */
  uploadPhoto: (viewer: Viewer | null): boolean => canWrite(viewer),
  updateReply: (viewer: Viewer | null, reply: ReplyFacts): boolean =>
    !reply.isSystemEvent && (isAdmin(viewer) || writesOwn(viewer, reply.userId)),
  destroyReply: (viewer: Viewer | null, reply: ReplyFacts): boolean =>
    !reply.isSystemEvent && (moderates(viewer, reply) || writesOwn(viewer, reply.userId)),

  /**
   * The abilities clients show buttons by. An administrator's are all true on every topic and reply, deleted
   * replies and system events included (homeland's `can :manage, :all`; contract §5), even where the act itself
   * then answers 404 or refuses.
   */
  topicAbilities(viewer: Viewer | null, topic: TopicFacts): TopicAbilities {
    if (isAdmin(viewer)) return ALL_TOPIC_ABILITIES;
    const moderating = policy.gradeTopic(viewer, topic);
    return {
      update: policy.updateTopic(viewer, topic),
      destroy: policy.destroyTopic(viewer, topic),
      ban: policy.banTopic(viewer, topic),
      normal: moderating,
      excellent: moderating,
      unexcellent: moderating,
      close: policy.closeTopic(viewer, topic),
      open: policy.closeTopic(viewer, topic),
    };
  },

  replyAbilities(viewer: Viewer | null, reply: ReplyFacts & { readonly deleted: boolean }): ReplyAbilities {
    if (isAdmin(viewer)) return ALL_REPLY_ABILITIES;
    if (reply.deleted) return NO_REPLY_ABILITIES;
    return { update: policy.updateReply(viewer, reply), destroy: policy.destroyReply(viewer, reply) };
  },

  /** Only administrators manage accounts. */
  userAbilities(viewer: Viewer | null): UserAbilities {
    const admin = isAdmin(viewer);
    return { update: admin, destroy: admin };
  },
};

/** Messages the contract wants shown with these refusals. */
export const DENIED = {
  createTopic: 'The current user does not have permission to create topics.',
  createReply: 'The current user does not have permission to reply to topics.',
  banTopic: 'The current user does not have permission to ban topics.',
  uploadPhoto: 'The current user does not have permission to upload photos.',
  /** Contract §23: a node whose topics are started only by some (its groups, staff). */
  startTopicsInNode: 'The current user does not have permission to create topics in this node.',
  replyInNode: 'The current user does not have permission to reply to topics in this node.',
  /** Contract §24: a blocked account writes no message. */
  sendMessage: 'The current user does not have permission to send messages.',
} as const;
