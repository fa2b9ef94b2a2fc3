/**
 * An in-process memo of when this process last wrote (or tried to write) a slowly changing mark for each key: a
 * user's last visit, a token's last use. It answers almost every "is a write due?" without a statement, so the
 * hottest path writes at most once per key per period. At most `limit` keys are remembered; past it the oldest are
 * forgotten (a forgotten one costs one more write, no more).
 */
export class RecentWrites {
  /** When this process last wrote (or tried) for a key, in insertion order: the oldest first. */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly periodMs: number,
    private readonly limit = 100_000,
  ) {}

  /** Whether a write for `key` is due at `now` (none in the last period); if so, it is remembered as written. */
  due(key: string, now: number): boolean {
    const last = this.written.get(key);
    if (last !== undefined && now - last < this.periodMs) return false;
    // Deleted first, so that the map stays in the order of the writes and its oldest entries come first.
    this.written.delete(key);
    this.written.set(key, now);
    if (this.written.size > this.limit) {
      for (const [old, when] of this.written) {
        if (now - when < this.periodMs && this.written.size <= this.limit * 0.9) break;
        this.written.delete(old);
      }
    }
    return true;
  }

  /** The write did not happen: the next call for `key` tries again. */
  forget(key: string): void {
    this.written.delete(key);
  }
}
