import { z } from 'zod';
import { REVIEW_ACTIONS, type ReviewAction, moderationActed, replyCreated, topicCreated } from '../../domain/events.js';
import { type ReviewItem, requireResolvable } from '../../domain/review/review-item.js';
import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { canWrite, policy } from '../../domain/shared/policy.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { Reply } from '../../domain/replies/reply.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, type ActingUser, requireUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { ListLimit, Offset, maybe, oneOf, optional, read, readAll, readReason } from '../inputs.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import type { AnyPost, Posts } from '../posts/posts.js';
import { DisciplineDays, type DisciplineUser } from '../users/discipline.js';
import type { ReviewItemView, ReviewReadModel, ReviewScope, ReviewStore } from './ports.js';
import type { SignOutEverywhere } from '../tokens/access-tokens.js';

export const REVIEW_STATUSES = ['pending', 'resolved'] as const;
export const ListReviewParams = z.object({
  status: optional(oneOf(REVIEW_STATUSES), 'pending'),
  offset: Offset,
  limit: ListLimit,
});

/**
 * What `actor` reviews: every item (administrators), or those of posts in the nodes they moderate (contract §23);
 * anyone else may not review at all.
 */
async function reviewScope(nodes: NodeRepository, actor: Actor): Promise<{ reviewer: ActingUser; scope: ReviewScope }> {
  const reviewer = requireUser(actor);
  if (policy.reviewPosts(reviewer)) return { reviewer, scope: 'all' };
  const nodeIds = canWrite(reviewer) ? await nodes.moderatedBy(reviewer.id) : [];
  if (nodeIds.length === 0) throw new Forbidden();
  return { reviewer, scope: { nodeIds } };
}

/**
 * A reviewer was shown flagged private messages (contract §24): each look is written in the audit log, in the unit of
 * work of the reading. (Only administrators see them: a node's moderators review only their nodes' posts.)
 */
async function recordLooks(
  items: readonly ReviewItemView[],
  reviewer: ActingUser,
  events: DomainEvents,
  uow: UnitOfWork,
): Promise<void> {
  const messages = items.filter((item) => item.message !== null);
  if (messages.length === 0) return;
  await uow.run(async () => {
    for (const item of messages) {
      const target = { type: item.targetType, id: item.targetId } as const;
      await events.record(moderationActed('review.message_viewed', reviewer.id, target, {}, null));
    }
  });
}

/** The queue, for administrators and node moderators: pending items oldest first, or resolved ones. */
export class ListReviewItems {
  constructor(
    private readonly items: ReviewReadModel,
    private readonly nodes: NodeRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, raw: unknown): Promise<ReviewItemView[]> {
    const { reviewer, scope } = await reviewScope(this.nodes, actor);
    const { status, offset, limit } = readAll(ListReviewParams, raw);
    const items = await this.items.list(status, { offset, limit }, scope);
    await recordLooks(items, reviewer, this.events, this.uow);
    return items;
  }
}

export class ShowReviewItem {
  constructor(
    private readonly items: ReviewReadModel,
    private readonly nodes: NodeRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, id: number): Promise<ReviewItemView> {
    const { reviewer, scope } = await reviewScope(this.nodes, actor);
    const item = await this.items.get(id, scope);
    if (!item) throw new NotFound('review item');
    await recordLooks([item], reviewer, this.events, this.uow);
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
    private readonly nodes: NodeRepository,
    private readonly posts: Posts,
    private readonly users: UserRepository,
    private readonly discipline: DisciplineUser,
    private readonly signOut: SignOutEverywhere,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * A node's moderator resolves the items of posts in their nodes, but neither calls an author a spammer nor silences
   * one: those stay the administrators' (contract §23).
   */
  async execute(actor: Actor, id: number, raw: { action?: unknown; reason?: unknown; silence_days?: unknown }): Promise<void> {
    const { reviewer: admin, scope } = await reviewScope(this.nodes, actor);
    await this.uow.run(async () => {
      const item = await this.store.lock(id);
      if (!item || (scope !== 'all' && !scope.nodeIds.includes((await this.posts.nodeIdOf(item)) ?? 0))) {
        throw new NotFound('review item');
      }
      const action = read(ResolveReviewParams.shape.action, raw.action, 'action');
      const silenceDays = read(ResolveReviewParams.shape.silence_days, raw.silence_days, 'silence_days');
      const reason = readReason(raw.reason);
      if (scope !== 'all' && (action === 'spammer' || silenceDays !== undefined)) throw new Forbidden();
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
    const deleted = await this.posts.removeAllOf(author.id, admin.id);
    const from = author.role;
    author.changeRole('blocked', now);
    if (from !== 'blocked') {
      await this.events.record({ type: 'user.role_changed', userId: author.id, from, to: 'blocked', actorId: admin.id });
    }
    await this.signOut.execute(author.id);
    return { role: [from, 'blocked'], deleted: [null, deleted] };
  }
}

/** The post an act needs, unless it was deleted meanwhile. */
function required(post: AnyPost | null): AnyPost {
  if (!post) throw new RuleViolated('Validation failed: the post was deleted');
  return post;
}
