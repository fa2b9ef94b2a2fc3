import type { FlagReason, PostRef, ReviewResolution } from '../../domain/events.js';
import type { ReviewItem, ReviewKind, ReviewStatus } from '../../domain/review/review-item.js';
import type { Page, ReplyDetailView, TopicDetailView, UserView } from '../read-models.js';

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
  /**
   * A private message (contract §24: a conversation's opening or a reply in it), instead of `topic` and `reply`: the
   * flagged message and only it, nothing else of its conversation (no title, no other message, nobody in it).
   */
  message: FlaggedMessageView | null;
  user: UserView;
  flags: FlagView[];
  status: ReviewStatus;
  resolution: ReviewResolution | null;
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: UserView | null;
}

/** A flagged private message, as its reviewers are shown it. */
export interface FlaggedMessageView {
  id: number;
  body: string;
  bodyHtml: string;
  user: UserView;
  createdAt: Date;
  deleted: boolean;
}

/** Which items a reviewer reads: every one (administrators), or those of posts in these nodes (their moderators). */
export type ReviewScope = 'all' | { nodeIds: readonly number[] };

export interface ReviewReadModel {
  /** Pending items oldest first; resolved ones most recently resolved first. One statement. */
  list(status: ReviewStatus, page: Page, scope: ReviewScope): Promise<ReviewItemView[]>;
  get(id: number, scope: ReviewScope): Promise<ReviewItemView | null>;
}
export const ReviewReadModel = Symbol.for('ReviewReadModel');
