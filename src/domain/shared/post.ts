/**
 * Where a post (a topic or a reply) stands for its readers (contract §18): `public`; `held`, a new member's post
 * waiting for an administrator's approval; `hidden`, flagged by enough people (or once by an administrator) and
 * waiting for review. A post that is not public is shown to its author and to administrators as before, and to
 * anyone else as if it were deleted: a topic is 404 and out of every list, a reply keeps its floor as a deleted one.
 *
 * Who sees a post in which state is the visibility policy's (domain/visibility/visibility.ts). What a post that is
 * not yet public sets off (nothing) is decided where its events are made (domain/events.ts).
 */
export const VISIBILITIES = ['public', 'held', 'hidden'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * What topics and replies share: an author, a place among what readers see (above), and soft deletion. Counters are
 * not part of it: they change by atomic SQL, never read-modify-write.
 */
export abstract class Post {
  id!: number;
  userId!: number;
  visibility!: Visibility;
  deletedAt!: Date | null;
  deletedById!: number | null;
  createdAt!: Date;
  updatedAt!: Date;

  isPublic(): boolean {
    return this.visibility === 'public';
  }

  /** Waiting for an administrator's approval: until then it sets off nothing (domain/events.ts). */
  isHeld(): boolean {
    return this.visibility === 'held';
  }

  /** A new post the rules hold (contract §18): it waits for an administrator's approval. */
  hold(): void {
    this.visibility = 'held';
  }

  /** Flagged past the threshold: hidden until it is reviewed. Returns whether it was public. */
  hide(): boolean {
    if (this.visibility !== 'public') return false;
    this.visibility = 'hidden';
    return true;
  }

  /** A reviewer disagreed with its flags: shown again. Returns whether it was hidden. */
  unhide(): boolean {
    if (this.visibility !== 'hidden') return false;
    this.visibility = 'public';
    return true;
  }

  /**
   * Approved: published, as if it were posted at this moment (contract §18). Returns whether it was held.
   */
  publish(now: Date): boolean {
    if (this.visibility !== 'held') return false;
    this.visibility = 'public';
    this.createdAt = now;
    this.updatedAt = now;
    return true;
  }

  /** Soft deletion, recording who did it: the row stays, and answers as not found (a reply keeps its floor). */
  softDelete(byUserId: number, now: Date): void {
    this.deletedAt = now;
    this.deletedById = byUserId;
    this.updatedAt = now;
  }
}
