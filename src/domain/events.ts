import type { NewNotification } from './notifications/notification.js';
import type { Reply } from './replies/reply.js';
import type { Role } from './users/role.js';
import type { Topic } from './topics/topic.js';
import type { Post } from './shared/post.js';
import { isPublished } from './visibility/visibility.js';

/**
 * Facts about what changed, as plain data: named in the past tense, with the ids and values their consumers
 * need and nothing of the ORM. A use case records them next to the change, in the same transaction, and says
 * nothing about who listens (../shared/design/events.md).
 */
export type DomainEvent =
  | {
      type: 'topic.created';
      topicId: number;
      userId: number;
      nodeId: number;
      mentions: string[];
      title: string;
      bodyHtml: string;
      createdAt: Date;
      at: Date;
    }
  | { type: 'topic.updated'; topicId: number; title: string; bodyHtml: string; createdAt: Date; at: Date }
  | {
      type: 'reply.created';
      replyId: number;
      topicId: number;
      userId: number;
      mentions: string[];
      bodyHtml: string;
      createdAt: Date;
      at: Date;
    }
  | { type: 'reply.updated'; replyId: number; topicId: number; bodyHtml: string; createdAt: Date; at: Date }
  /** A moderation or the author's act on a topic or reply: `actorId` did it. */
  | { type: 'topic.banned'; topicId: number; actorId: number }
  | { type: 'topic.deleted'; topicId: number; ownerId: number; nodeId: number; actorId: number }
  /** `byAdmin`: an administrator moved it (its owner hears of it, unless the owner did it). */
  | {
      type: 'topic.moved';
      topicId: number;
      ownerId: number;
      fromNodeId: number;
      toNodeId: number;
      actorId: number;
      byAdmin: boolean;
    }
  /** `userId` wrote it, at `createdAt`. */
  | { type: 'reply.deleted'; replyId: number; topicId: number; userId: number; createdAt: Date; actorId: number }
  | { type: 'user.created'; userId: number }
  /**
   * A message was written in conversation `topicId` (contract §24): its opening (`replyId` null) or a reply, by
   * `userId`, for `recipientIds` (everyone else who takes part, as they stood then). Named apart from `topic.*` and
   * `reply.*`, which the forum's effects follow: nothing of the forum hears of it.
   */
  | { type: 'message.created'; topicId: number; replyId: number | null; userId: number; recipientIds: number[]; at: Date }
  /** A message of conversation `topicId` was deleted by `actorId` (a reviewer agreeing with its flags): `replyId` null, its opening. */
  | { type: 'message.deleted'; topicId: number; replyId: number | null; actorId: number }
  /** `actorId` added people to conversation `topicId`: users, and groups whose members take part. */
  | { type: 'conversation.joined'; topicId: number; userIds: number[]; groupIds: number[]; actorId: number }
  /** `userId` left conversation `topicId`. */
  | { type: 'conversation.left'; topicId: number; userId: number }
  /** Who may read in node `nodeId` changed (contract §23): whoever no longer may forgets what they heard of it. */
  | { type: 'node.access_changed'; nodeId: number }
  /** `userIds` left group `groupId`: what they may no longer read, they forget (contract §23). */
  | { type: 'group.members_removed'; groupId: number; userIds: number[] }
  /** The account was left or removed by an administrator: anonymized (contract §16c). */
  | { type: 'user.deleted'; userId: number }
  /**
   * A mail link was made for this account (contract §16b): `tokenId` names its row in account_tokens; whoever
   * writes the mail derives the link from it (MailTokenKeys). An `email_change` link goes to the row's new address.
   */
  | { type: 'account.token_issued'; userId: number; tokenId: string; purpose: MailTokenPurpose }
  /** Someone signed up with an address this account already has: its owner is told, and nobody else. */
  | { type: 'account.sign_up_repeated'; userId: number }
  /** The password was changed or reset: its owner gets a notice. */
  | { type: 'account.password_changed'; userId: number }
  /** The address changed, once the new one was confirmed: the previous address gets a notice. */
  | { type: 'account.email_changed'; userId: number; previousEmail: string }
  /** An administrator let a pending account in: its owner is told. */
  | { type: 'account.approved'; userId: number }
  | { type: 'user.followed' | 'user.unfollowed'; followerId: number; followeeId: number }
  /** A user's favorites changed: named apart from `topic.*`, which change topic lists (front-page-cache.ts). */
  | { type: 'favorite.added' | 'favorite.removed'; topicId: number; userId: number }
  | { type: 'user.role_changed'; userId: number; from: Role; to: Role; actorId: number }
  /** A post waits for approval (contract §18): recorded instead of its `*.created`, which comes when it is approved. */
  | ({ type: 'post.held' } & PostRef)
  /** A held post was deleted by `actorId` (rejected, or withdrawn by its author) without ever being public. */
  | ({ type: 'post.discarded'; actorId: number } & PostRef)
  /** Hidden by its flags, or shown again when a reviewer disagreed: what readers see changed. */
  | ({ type: 'post.hidden' | 'post.unhidden' } & PostRef)
  /** `flaggerId` flagged the post; `itemId` is the review item that gathers its flags. */
  | ({ type: 'post.flagged'; itemId: number; flaggerId: number; reason: FlagReason } & PostRef)
  /** A review item was resolved (`action`) by `actorId`. */
  | { type: 'review.resolved'; itemId: number; action: ReviewResolution; actorId: number }
  /**
   * New notifications, as the notification producer made them: the outbox names each by the id it was written with and
   * the user it is for (`{ notifications: [{ id, userId }] }`).
   */
  | { type: 'notification.created'; notifications: readonly NewNotification[] }
  /** Notifications read or deleted: these users' unread counts may have changed. */
  | { type: 'notification.read' | 'notification.deleted'; userIds: number[] }
  /** A moderation or administration act (contract §14), for the audit log. */
  | ModerationActed;

/** The acts the audit log records (contract §14). */
export const AUDIT_ACTIONS = [
  'topic.ban',
  'topic.delete',
  'topic.move',
  'topic.excellent',
  'topic.unexcellent',
  'topic.close',
  'topic.open',
  'topic.suggest',
  'topic.unsuggest',
  'reply.delete',
  'user.role',
  'node.create',
  'node.hide',
  'node.unhide',
  'node.section',
  'section.create',
  'token.revoke',
  'app.create',
  'user.approve',
  'user.reject',
  'user.verify',
  'user.delete',
  'invite.create',
  'invite.revoke',
  'review.agree',
  'review.disagree',
  'review.approve',
  'review.reject',
  'review.spammer',
  /** An administrator was shown a flagged private message (contract §24): who looked, at which. */
  'review.message_viewed',
  'user.silence',
  'user.unsilence',
  'user.suspend',
  'user.unsuspend',
  'upload.delete',
  'group.create',
  'group.update',
  'group.delete',
  'group.add',
  'group.remove',
  'node.access',
  /** A sign-in provider was configured or removed (contract §25): never its secret. */
  'provider.add',
  'provider.remove',
  /** forumctl users 2fa reset (contract §25): a person's second factors removed. */
  'user.second_factor_reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = [
  'Topic',
  'Reply',
  'User',
  'Node',
  'Section',
  'Token',
  'App',
  'Invite',
  'Upload',
  'Group',
  'Provider',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** What an act changed, field by field: `[before, after]` (the shape of Rails' `changes`, as homeland keeps them). */
export type AuditChanges = Record<string, [unknown, unknown]>;

/** Who did what to which record, what it changed and why. */
export interface ModerationActed {
  type: 'moderation.acted';
  action: AuditAction;
  actorId: number;
  targetType: AuditTargetType;
  targetId: number;
  changes: AuditChanges;
  reason: string | null;
}

export function moderationActed(
  action: AuditAction,
  actorId: number,
  target: { type: AuditTargetType; id: number },
  changes: AuditChanges,
  reason: string | null | undefined,
): ModerationActed {
  return {
    type: 'moderation.acted',
    action,
    actorId,
    targetType: target.type,
    targetId: target.id,
    changes,
    reason: reason ?? null,
  };
}

/** What a mail link does: confirm an address at sign-up, reset a password, confirm a new address. */
export const MAIL_TOKEN_PURPOSES = ['verify', 'reset', 'email_change'] as const;
export type MailTokenPurpose = (typeof MAIL_TOKEN_PURPOSES)[number];

export type DomainEventType = DomainEvent['type'];

/**
 * The events other systems may subscribe to (contract §13): changes to topics, replies and users. Notifications
 * are each user's own business and reach them through their stream, not through a webhook.
 */
export const WEBHOOK_EVENTS = [
  'topic.created',
  'topic.updated',
  'topic.deleted',
  'topic.moved',
  'topic.banned',
  'reply.created',
  'reply.updated',
  'reply.deleted',
  'user.created',
  'user.deleted',
  'user.role_changed',
  'post.flagged',
  'review.resolved',
] as const satisfies readonly DomainEventType[];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Why a post is flagged (contract §18). */
export const FLAG_REASONS = ['spam', 'inappropriate', 'off_topic', 'other'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** How a review item ended: by a reviewer's action (contract §18), or `deleted` when its post was deleted otherwise. */
export const REVIEW_ACTIONS = ['agree', 'disagree', 'approve', 'reject', 'spammer'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];
export type ReviewResolution = ReviewAction | 'deleted';

/** A post as review names it: which record, in which topic, by whom. */
export interface PostRef {
  targetType: 'Topic' | 'Reply';
  targetId: number;
  topicId: number;
  /** The post's author. */
  userId: number;
}

export const topicRef = (topic: Topic): PostRef => ({
  targetType: 'Topic',
  targetId: topic.id,
  topicId: topic.id,
  userId: topic.userId,
});
export const replyRef = (reply: Reply): PostRef => ({
  targetType: 'Reply',
  targetId: reply.id,
  topicId: reply.topicId,
  userId: reply.userId,
});

/*
 * What happens to a post, as facts. One rule of contract §18 lives here, for every consumer at once (notifications
 * and their mail, counters, the search index, webhooks, live events, caches): **a post that is not yet public sets
 * off nothing** (the visibility policy's `isPublished`). Of a held post only its hold (`post.held`) and its removal (`post.discarded`) are recorded; an edit
 * or a move of it is no fact anyone hears of (null). Approved, it is published as if posted at that moment: its
 * `*.created` is recorded then (`topicCreated`, `replyCreated` on the published post). A hidden post was public: its
 * effects happened; what readers see of it is the read models' business.
 */

/** Of a held post, nothing; of any other, the fact. */
const unlessHeld = (post: Post, fact: () => DomainEvent): DomainEvent | null => (isPublished(post) ? fact() : null);

const topicContent = (topic: Topic) => ({
  topicId: topic.id,
  title: topic.title,
  bodyHtml: topic.bodyHtml,
  createdAt: topic.createdAt,
  at: topic.updatedAt,
});

const replyContent = (reply: Reply) => ({
  replyId: reply.id,
  topicId: reply.topicId,
  bodyHtml: reply.bodyHtml,
  createdAt: reply.createdAt,
  at: reply.updatedAt,
});

/**
 * A new topic, or one just approved; `mentions`: the logins its body names with `@login`, as the Markdown renderer
 * found them. Held, it is only waiting.
 */
export const topicCreated = (topic: Topic, mentions: readonly string[]): DomainEvent =>
  !isPublished(topic)
    ? { type: 'post.held', ...topicRef(topic) }
    : { type: 'topic.created', userId: topic.userId, nodeId: topic.nodeId, mentions: [...mentions], ...topicContent(topic) };
export const topicUpdated = (topic: Topic): DomainEvent | null =>
  unlessHeld(topic, () => ({ type: 'topic.updated', ...topicContent(topic) }));
/** `topic` is where it went; `actor` moved it (its owner hears of it when an administrator did, unless the owner did). */
export const topicMoved = (topic: Topic, fromNodeId: number, actor: { id: number; role: Role }): DomainEvent | null =>
  unlessHeld(topic, () => ({
    type: 'topic.moved',
    topicId: topic.id,
    ownerId: topic.userId,
    fromNodeId,
    toNodeId: topic.nodeId,
    actorId: actor.id,
    byAdmin: actor.role === 'admin',
  }));
export const topicDeleted = (topic: Topic, actorId: number): DomainEvent =>
  !isPublished(topic)
    ? { type: 'post.discarded', actorId, ...topicRef(topic) }
    : { type: 'topic.deleted', topicId: topic.id, ownerId: topic.userId, nodeId: topic.nodeId, actorId };

/** A new reply, or one just approved; `mentions` as for a topic. Held, it is only waiting. */
export const replyCreated = (reply: Reply, mentions: readonly string[]): DomainEvent =>
  !isPublished(reply)
    ? { type: 'post.held', ...replyRef(reply) }
    : { type: 'reply.created', userId: reply.userId, mentions: [...mentions], ...replyContent(reply) };
export const replyUpdated = (reply: Reply): DomainEvent | null =>
  unlessHeld(reply, () => ({ type: 'reply.updated', ...replyContent(reply) }));
export const replyDeleted = (reply: Reply, actorId: number): DomainEvent =>
  !isPublished(reply)
    ? { type: 'post.discarded', actorId, ...replyRef(reply) }
    : {
        type: 'reply.deleted',
        replyId: reply.id,
        topicId: reply.topicId,
        userId: reply.userId,
        createdAt: reply.createdAt,
        actorId,
      };
