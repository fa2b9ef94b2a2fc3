/**
 * When people were last here (contract §17): a digest goes only to users not seen for its period, and "seen" is
 * an authenticated request or a sign-in. Told of every authenticated request, so an implementation must cost
 * next to nothing when nothing changes: digests need the time to within an hour (SEEN_PRECISION_MS), not to the
 * request.
 */
export interface Presence {
  /**
   * The user (or the user of the live access token with this digest: a read that never looked its caller up)
   * was here at `at`. Never throws: a mark that could not be written is tried again at the next visit.
   */
  seen(who: { userId: number } | { accessDigest: string }, at: Date): Promise<void>;
}
export const Presence = Symbol.for('Presence');

/** How stale a recorded visit may be: at most one write per user per hour, whatever the traffic. */
export const SEEN_PRECISION_MS = 3_600_000;
