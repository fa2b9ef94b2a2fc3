import { z } from 'zod';
import {
  type DomainEvent,
  FLAG_REASONS,
  type FlagReason,
  type PostRef,
  REVIEW_ACTIONS,
  type ReviewAction,
  type ReviewResolution,
  moderationActed,
  replyCreated,
  topicCreated,
} from '../../domain/events.js';
import {
  type ReviewItem,
  type ReviewKind,
  type ReviewStatus,
  flagsHide,
  requireResolvable,
} from '../../domain/review/review-item.js';
import { InvalidInput, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, type ActingUser, requireAdmin, requireUser } from '../actor.js';
import type { DomainEvents, InTransactionConsumer } from '../events.js';
import type { Page, ReplyDetailView, TopicDetailView, UserView } from '../read-models.js';
import { ListLimit, Offset, Text, maybe, oneOf, optional, read, readAll, readReason } from '../inputs.js';
import type { WebSessionStore } from '../oauth/web-sessions.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import type { AnyPost, PostTarget, Posts } from '../posts/posts.js';
import type { AccessTokenStore } from '../tokens/access-tokens.js';
import { DisciplineDays, type DisciplineUser } from '../users/discipline.js';

/** A flag as it is stored. */
export interface NewFlag {
  userId: number;
  reason: FlagReason;
  message: string | null;
  at: Date;
}

/** The review queue's records (contract §18): items, and the flags they gather. */
export interface ReviewStore {
  /**
   * Adds the flag to the pending flag item of its post, opening one when there is none, and holds the item until
   * the unit of work ends (two flags of one post are counted one after the other). Null when this person flagged the
   * post before, in any item: a second flag is a no-op.
   */
  addFlag(post: PostRef, flag: NewFlag): Promise<{ itemId: number } | null>;
  /** How many people flagged the item: read after `addFlag`, it counts every flag committed before this one. */
  flaggers(itemId: number): Promise<number>;
  /** Opens the hold item of a held post. */
  openHold(post: PostRef, at: Date): Promise<void>;
  /** The item, locked until the unit of work ends; null when there is none. */
  lock(id: number): Promise<ReviewItem | null>;
  resolve(id: number, resolution: ReviewResolution, actorId: number, reason: string | null, at: Date): Promise<void>;
  /** Resolves the pending items of a deleted post as `deleted` (a topic's: its replies' items too). */
  resolveDeleted(post: { targetType: PostRef['targetType']; targetId: number }, actorId: number, at: Date): Promise<void>;
  /** Resolves every pending item about an author's posts with `resolution`; returns their ids. */
  resolveAllOf(userId: number, resolution: ReviewResolution, actorId: number, reason: string | null, at: Date): Promise<number[]>;
  countPending(): Promise<number>;
}
export const ReviewStore = Symbol.for('ReviewStore');

/** A flag as the queue shows it. */
export interface FlagView {
  user: UserView;
  reason: FlagReason;
  message: string | null;
  createdAt: Date;
}

/** An item as the queue shows it: its post as an administrator sees it (deleted or not), its author, its flags. */
export interface ReviewItemView {
  id: number;
  kind: ReviewKind;
  targetType: PostRef['targetType'];
  targetId: number;
  topic: { view: TopicDetailView; deleted: boolean } | null;
  reply: ReplyDetailView | null;
  user: UserView;
  flags: FlagView[];
  status: ReviewStatus;
  resolution: ReviewResolution | null;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: UserView | null;
}

export interface ReviewReadModel {
  /** Pending items oldest first; resolved ones most recently resolved first. One statement. */
  list(status: ReviewStatus, page: Page): Promise<ReviewItemView[]>;
  get(id: number): Promise<ReviewItemView | null>;
}
export const ReviewReadModel = Symbol.for('ReviewReadModel');

/** Contract §18's threshold: how many people's flags hide a post (FLAG_HIDE_THRESHOLD). */
export interface FlagSettings {
  hideThreshold: number;
}

export const MAX_FLAG_MESSAGE = 500;

/** The parameters of a flag, as they are read (and documented). */
export const FlagParams = z.object({
  reason: oneOf(FLAG_REASONS),
  message: maybe(
    Text.pipe(
      z
        .string()
        .trim()
        .max(MAX_FLAG_MESSAGE, { error: `must be at most ${MAX_FLAG_MESSAGE} characters` }),
    ),
  ).meta({ description: 'required for the reason `other`', maxLength: MAX_FLAG_MESSAGE }),
});

/**
 * A person flags a post (contract §18): once per post (again is a no-op), never their own. The post is hidden at
 * once when enough people flagged it, or an administrator did; its review item gathers the flags either way.
 */
export class FlagPost {
  constructor(
    private readonly posts: Posts,
    private readonly store: ReviewStore,
    private readonly events: DomainEvents,
    private readonly settings: FlagSettings,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, target: PostTarget, raw: { reason?: unknown; message?: unknown }): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const post = await this.posts.load(target, user);
      const ref = this.posts.ref(post);
      const { reason, message } = readAll(FlagParams, raw);
      if (reason === 'other' && !message) throw new InvalidInput('message', 'message is missing (required for the reason other)');
      if (post.userId === user.id) throw new RuleViolated('Validation failed: you cannot flag your own post');
      if (post.isHeld()) throw new RuleViolated('Validation failed: the post is waiting for approval; approve or reject it');
      const now = this.clock.now();
      const added = await this.store.addFlag(ref, { userId: user.id, reason, message: message || null, at: now });
      if (!added) return;
      const flaggers = await this.store.flaggers(added.itemId);
      if (flagsHide(flaggers, user.role === 'admin', this.settings.hideThreshold) && post.hide()) {
        await this.posts.save(post);
        await this.events.record({ type: 'post.hidden', ...ref });
      }
      await this.events.record({ type: 'post.flagged', itemId: added.itemId, flaggerId: user.id, reason, ...ref });
    });
  }
}

export const REVIEW_STATUSES = ['pending', 'resolved'] as const;
export const ListReviewParams = z.object({
  status: optional(oneOf(REVIEW_STATUSES), 'pending'),
  offset: Offset,
  limit: ListLimit,
});

/** The queue, for administrators: pending items oldest first, or resolved ones. */
export class ListReviewItems {
  constructor(private readonly items: ReviewReadModel) {}

  async execute(actor: Actor, raw: unknown): Promise<ReviewItemView[]> {
    requireAdmin(actor);
    const { status, offset, limit } = readAll(ListReviewParams, raw);
    return this.items.list(status, { offset, limit });
  }
}

export class ShowReviewItem {
  constructor(private readonly items: ReviewReadModel) {}

  async execute(actor: Actor, id: number): Promise<ReviewItemView> {
    requireAdmin(actor);
    const item = await this.items.get(id);
    if (!item) throw new NotFound('review item');
    return item;
  }
}

/** The parameters of a resolution, as they are read (and documented). */
export const ResolveReviewParams = z.object({
  action: oneOf(REVIEW_ACTIONS),
  silence_days: maybe(DisciplineDays).meta({ description: 'with agree or reject: silence the author for this many days' }),
});

/**
 * A reviewer resolves an item (contract §18), once:
 * - `agree`: the flagged post is deleted (and with `silence_days`, its author silenced, as `reject` may too);
 * - `disagree`: the post is shown again; its flags stay with the resolved item and count no more;
 * - `approve`: the held post is published, as if posted now: everything it would have set off happens then;
 * - `reject`: the held post is deleted, having set off nothing;
 * - `spammer`: every topic and reply of the author is deleted, the account blocked, its tokens and sessions ended,
 *   and its other pending items resolved alike.
 * Every resolution is audited and recorded (`review.resolved`).
 */
export class ResolveReview {
  constructor(
    private readonly store: ReviewStore,
    private readonly posts: Posts,
    private readonly topics: TopicRepository,
    private readonly replies: ReplyRepository,
    private readonly users: UserRepository,
    private readonly discipline: DisciplineUser,
    private readonly accessTokens: AccessTokenStore,
    private readonly sessions: WebSessionStore,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: number, raw: { action?: unknown; reason?: unknown; silence_days?: unknown }): Promise<void> {
    const admin = requireAdmin(actor);
    await this.uow.run(async () => {
      const item = await this.store.lock(id);
      if (!item) throw new NotFound('review item');
      const action = read(ResolveReviewParams.shape.action, raw.action, 'action');
      const silenceDays = read(ResolveReviewParams.shape.silence_days, raw.silence_days, 'silence_days');
      const reason = readReason(raw.reason);
      requireResolvable(item, action);
      if (silenceDays !== undefined && action !== 'agree' && action !== 'reject') {
        throw new RuleViolated(`Validation failed: silence_days goes with agree or reject, not ${action}`);
      }
      const now = this.clock.now();
      // Resolved first: what the act then sets off (a deletion) finds no pending item of this post to close.
      await this.store.resolve(item.id, action, admin.id, reason, now);
      const changes = await this.act(action, item, admin, reason, silenceDays, now);
      await this.events.record({ type: 'review.resolved', itemId: item.id, action, actorId: admin.id });
      const target = { type: item.targetType, id: item.targetId } as const;
      const audited = { resolution: [null, action] as [null, string], ...changes };
      await this.events.record(moderationActed(`review.${action}`, admin.id, target, audited, reason));
    });
  }

  /** What the action does to the post and its author; returns what it changed, for the audit log. */
  private async act(
    action: ReviewAction,
    item: ReviewItem,
    admin: ActingUser,
    reason: string | null,
    silenceDays: number | undefined,
    now: Date,
  ): Promise<Record<string, [unknown, unknown]>> {
    const post = await this.posts.find(item);
    switch (action) {
      case 'agree':
      case 'reject': {
        const changes: Record<string, [unknown, unknown]> = {};
        if (post) changes.deleted_at = [null, await this.posts.remove(post, admin.id)];
        if (silenceDays !== undefined) {
          const author = await this.users.findById(item.userId);
          if (author) changes.silenced_until = [null, await this.discipline.apply(admin, author, 'silence', silenceDays, reason)];
        }
        return changes;
      }
      case 'disagree': {
        const hidden = required(post);
        if (!hidden.unhide()) return {};
        await this.posts.save(hidden);
        await this.events.record({ type: 'post.unhidden', ...this.posts.ref(hidden) });
        return { visibility: ['hidden', 'public'] };
      }
      case 'approve': {
        const held = required(post);
        if (!held.publish(now)) return {};
        await this.posts.save(held);
        const mentions = this.markdown.render(held.body).mentions;
        await this.events.record(held instanceof Reply ? replyCreated(held, mentions) : topicCreated(held, mentions));
        return { visibility: ['held', 'public'] };
      }
      case 'spammer':
        return this.spammer(item, admin, reason, now);
    }
  }

  /** The author's every post deleted, their account blocked and signed out, their other items resolved alike. */
  private async spammer(
    item: ReviewItem,
    admin: ActingUser,
    reason: string | null,
    now: Date,
  ): Promise<Record<string, [unknown, unknown]>> {
    const author = await this.users.findById(item.userId);
    if (!author) throw new NotFound('user');
    if (author.role === 'admin') {
      throw new RuleViolated('Validation failed: an administrator is no spammer; change the role first');
    }
    await this.store.resolveAllOf(author.id, 'spammer', admin.id, reason, now);
    // Replies first: a topic's deletion hides its replies, but theirs must go too (their counts, their notifications).
    const replies = await this.replies.authoredBy(author.id);
    for (const reply of replies) await this.posts.remove(reply, admin.id);
    const topics = await this.topics.authoredBy(author.id);
    for (const topic of topics) await this.posts.remove(topic, admin.id);
    const from = author.role;
    author.changeRole('blocked', now);
    if (from !== 'blocked') {
      await this.events.record({ type: 'user.role_changed', userId: author.id, from, to: 'blocked', actorId: admin.id });
    }
    await this.accessTokens.revokeAllFor(author.id, now);
    await this.sessions.removeAllFor(author.id);
    return { role: [from, 'blocked'], deleted: [null, { topics: topics.length, replies: replies.length }] };
  }
}

/** The post an act needs, unless it was deleted meanwhile. */
function required(post: AnyPost | null): AnyPost {
  if (!post) throw new RuleViolated('Validation failed: the post was deleted');
  return post;
}

/**
 * The queue's own bookkeeping, from the facts (an in-transaction consumer): a held post opens its item; a post deleted
 * outside the queue (by its author, a moderator, a purge) closes its pending items as `deleted`.
 */
export class ReviewQueueKeeper implements InTransactionConsumer {
  constructor(
    private readonly store: ReviewStore,
    private readonly clock: Clock,
  ) {}

  async handle(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'post.held':
        return this.store.openHold(event, this.clock.now());
      case 'post.discarded':
        return this.store.resolveDeleted(event, event.actorId, this.clock.now());
      case 'topic.deleted':
        return this.store.resolveDeleted({ targetType: 'Topic', targetId: event.topicId }, event.actorId, this.clock.now());
      case 'reply.deleted':
        return this.store.resolveDeleted({ targetType: 'Reply', targetId: event.replyId }, event.actorId, this.clock.now());
    }
  }
}
