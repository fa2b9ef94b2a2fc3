/** A key's count in its window, and when the window ends (the count starts again then). */
export interface ThrottleCount {
  key: string;
  count: number;
  endsAt: Date;
}

/**
 * The one store of the throttles' counts, shared by every server process: failed sign-ins (CredentialThrottle), the
 * account actions that send mail (AccountThrottle) and the API's requests (the API adapter's window limiter, its
 * cached front). A key counts within a window; the first count after a window ended starts the next one, which ends
 * when the caller says (a failed sign-in: a window from now; the API: the minute's end). Keys are kept as digests:
 * the store never holds what people typed, nor their addresses.
 */
export interface ThrottleCounts {
  /** Adds `amount` to each key as of `now` (a new window ending at `endsAt` when the key's ended); the totals. */
  add(entries: readonly { key: string; amount: number; endsAt: Date }[], now: Date): Promise<ThrottleCount[]>;
  /** The keys' counts in windows not ended at `now` (a key without one is absent). */
  read(keys: readonly string[], now: Date): Promise<ThrottleCount[]>;
  /** Forgets the keys' counts (a right password clears the failures of its pair). */
  clear(keys: readonly string[]): Promise<void>;
  /** Drops the counts of windows ended before `now` (housekeeping). */
  forgetEnded(now: Date): Promise<void>;
}
export const ThrottleCounts = Symbol.for('ThrottleCounts');

/** The seconds to wait until `endsAt`, at least one. */
export const secondsUntil = (endsAt: Date, now: Date): number =>
  Math.max(1, Math.ceil((endsAt.getTime() - now.getTime()) / 1000));
