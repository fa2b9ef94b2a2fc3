export const LIKE_TARGETS = ['topic', 'reply'] as const;
export type LikeTarget = (typeof LIKE_TARGETS)[number];

export function isLikeTarget(value: string): value is LikeTarget {
  return (LIKE_TARGETS as readonly string[]).includes(value);
}

/** Whether a like counts: liking one's own post is ignored (contract §7). */
export const likeCounts = (ownerId: number, likerId: number): boolean => ownerId !== likerId;

/** Likes of topics and replies, with the target's counter moved atomically alongside. */
export interface LikeRepository {
  /** Idempotent: returns whether the like was new. */
  add(target: LikeTarget, targetId: number, userId: number): Promise<boolean>;
  /** Idempotent: returns whether there was a like to remove. */
  remove(target: LikeTarget, targetId: number, userId: number): Promise<boolean>;
  /** Moves the target's `likes_count` by `delta` and returns the new count. */
  adjustCount(target: LikeTarget, targetId: number, delta: number): Promise<number>;
  count(target: LikeTarget, targetId: number): Promise<number>;
}
export const LikeRepository = Symbol.for('LikeRepository');
