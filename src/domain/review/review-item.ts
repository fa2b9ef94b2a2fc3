import { RuleViolated } from '../shared/errors.js';
import type { PostRef, ReviewAction, ReviewResolution } from '../events.js';

/**
 * The review queue (contract §18): one item per post, gathering every flag on it (`flag`), or per held post
 * (`hold`). A reviewer resolves it once, with an action that fits its kind.
 */
export type ReviewKind = 'flag' | 'hold';
export type ReviewStatus = 'pending' | 'resolved';

export interface ReviewItem extends PostRef {
  id: number;
  kind: ReviewKind;
  status: ReviewStatus;
  resolution: ReviewResolution | null;
}

/** Which actions resolve which kind of item: a flag is agreed or disagreed with, a hold approved or rejected. */
const FITS: Record<ReviewAction, readonly ReviewKind[]> = {
  agree: ['flag'],
  disagree: ['flag'],
  approve: ['hold'],
  reject: ['hold'],
  spammer: ['flag', 'hold'],
};

/** Refuses an action the item does not take: resolved already, or meant for the other kind (400 RecordInvalid). */
export function requireResolvable(item: ReviewItem, action: ReviewAction): void {
  if (item.status === 'resolved') {
    throw new RuleViolated(`Validation failed: review item ${item.id} is resolved already (${item.resolution})`);
  }
  if (!FITS[action].includes(item.kind)) {
    const fitting = (Object.keys(FITS) as ReviewAction[]).filter((name) => FITS[name].includes(item.kind));
    throw new RuleViolated(`Validation failed: ${action} does not apply to a ${item.kind} item; use ${fitting.join(', ')}`);
  }
}

/** Whether this many distinct flaggers hide a post: at the threshold, or at once when one of them is an administrator. */
export function flagsHide(flaggers: number, byAdmin: boolean, threshold: number): boolean {
  return byAdmin || flaggers >= threshold;
}
