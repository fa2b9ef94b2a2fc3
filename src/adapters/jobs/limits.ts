/**
 * Per-kind concurrency inside one graphile-worker runner. graphile-worker's own `concurrency` is per runner; a
 * kind's limit (at most 4 webhook tries and 2 mails at once, say) is kept with its `forbiddenFlags`, a function it
 * calls before each fetch of a job: every job of a limited kind is queued with its task's name as a flag, and the
 * flags of the kinds at their limit are forbidden.
 *
 * Decided before the fetch, the flags would be out of date if another fetch came back with a job meanwhile: the
 * process's workers fetch one at a time. `forbiddenFlags` waits for the fetch in flight to end (graphile-worker's
 * `job:start`, `worker:getJob:empty` or `worker:getJob:error`, exactly one per call), and a job started is counted
 * (`within`) in the same turn of the event loop as its `job:start`, before the next fetch is decided. A fetch is
 * one short statement: the workers spend their time in jobs, not in line.
 *
 * A job queued without the flag (before an upgrade that added flags) is not kept out by it: should one come while
 * its kind is at its limit, it waits in `within` for a place rather than run beyond the limit.
 */
export class KindLimits {
  /** Jobs of each kind running or waiting for a place. */
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();
  /** Settles when the last fetch asked for has ended. */
  private line: Promise<void> = Promise.resolve();
  /** Ends the fetch in flight. */
  private endFetch: (() => void) | null = null;

  constructor(private readonly limits: ReadonlyMap<string, number>) {}

  /** The sum of the limits: the places the limited kinds need. */
  get total(): number {
    let total = 0;
    for (const limit of this.limits.values()) total += limit;
    return total;
  }

  /** graphile-worker's `forbiddenFlags`: once the fetch before has ended, the flags of the kinds at their limit. */
  readonly forbiddenFlags = async (): Promise<string[]> => {
    const before = this.line;
    let end!: () => void;
    this.line = new Promise<void>((resolve) => (end = resolve));
    await before;
    this.endFetch = end;
    return [...this.limits].filter(([task, limit]) => (this.held.get(task) ?? 0) >= limit).map(([task]) => task);
  };

  /** The fetch in flight ended: with a job (counted by `within` before anything else runs), with none, or failed. */
  fetched(): void {
    const end = this.endFetch;
    this.endFetch = null;
    end?.();
  }

  /**
   * Runs a job of `task` within its limit. Its first lines run at once when graphile-worker calls the task (no
   * `await` before the count), in the turn of its `job:start`.
   */
  async within<T>(task: string, work: () => Promise<T>): Promise<T> {
    const limit = this.limits.get(task);
    if (limit === undefined) return work();
    const held = (this.held.get(task) ?? 0) + 1;
    this.held.set(task, held);
    if (held > limit) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(task) ?? [];
        queue.push(resolve);
        this.waiting.set(task, queue);
      });
    }
    try {
      return await work();
    } finally {
      this.held.set(task, (this.held.get(task) ?? 1) - 1);
      // The place goes to a job waiting for it (already counted in `held`).
      this.waiting.get(task)?.shift()?.();
    }
  }
}
