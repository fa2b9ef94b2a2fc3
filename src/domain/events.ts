import type { Reply } from './replies/reply.js';
import type { Role } from './users/role.js';
import type { Topic } from './topics/topic.js';

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
  /** New notifications, each with the user it is for. */
  | { type: 'notification.created'; notifications: { id: number; userId: number }[] }
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
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['Topic', 'Reply', 'User', 'Node', 'Section', 'Token', 'App', 'Invite'] as const;
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
] as const satisfies readonly DomainEventType[];
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

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

/** A new topic; `mentions`: the logins its body names with `@login`, as the Markdown renderer found them. */
export const topicCreated = (topic: Topic, mentions: readonly string[]): DomainEvent => ({
  type: 'topic.created',
  userId: topic.userId,
  nodeId: topic.nodeId,
  mentions: [...mentions],
  ...topicContent(topic),
});
export const topicUpdated = (topic: Topic): DomainEvent => ({ type: 'topic.updated', ...topicContent(topic) });
/** A new reply; `mentions` as for a topic. */
export const replyCreated = (reply: Reply, mentions: readonly string[]): DomainEvent => ({
  type: 'reply.created',
  userId: reply.userId,
  mentions: [...mentions],
  ...replyContent(reply),
});
export const replyUpdated = (reply: Reply): DomainEvent => ({ type: 'reply.updated', ...replyContent(reply) });
