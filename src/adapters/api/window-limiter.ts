import type { ThrottleCounts } from '../../application/throttles/throttle-counts.js';

/**
 * Counts shared by every process (contract §15: API rate limits hold across processes): adds this process's
 * increments for the window and returns each key's total over all processes.
 */
export interface SharedCounters {
  add(window: number, increments: ReadonlyMap<string, number>): Promise<Map<string, number>>;
  /** Drops the counts of windows before `window`. */
  forget(window: number): Promise<void>;
}

/**
 * The window limiter's shared counts in the throttles' one store (ThrottleCounts): each key of each window under a
 * name of its own (`api:<window>:<key>`, so that a sync that comes late to a window adds to that window, not the
 * next), living until the window's end.
 */
export function throttleWindows(counts: ThrottleCounts, windowMs = 60_000): SharedCounters {
  return {
    async add(window, increments) {
      const endsAt = new Date((window + 1) * windowMs);
      const prefix = `api:${window}:`;
      const totals = await counts.add(
        [...increments].map(([key, amount]) => ({ key: `${prefix}${key}`, amount, endsAt })),
        new Date(window * windowMs),
      );
      return new Map(totals.map((total) => [total.key.slice(prefix.length), total.count]));
    },
    forget: (window) => counts.forgetEnded(new Date(window * windowMs)),
  };
}

/**
 * Fixed-window request counts per key (a token, an address), decided in memory and shared through the throttles'
 * store a few times a second rather than on every request (the cached front of ThrottleCounts): a request costs a map update, and one statement every
 * `sync` carries every increment of the interval. Each process knows the total of every key it serves as of its
 * last sync, plus its own since: a limit can be passed by what the other processes served since their last
 * sync (at most one sync interval of their traffic on that key, plus one request each for a key they had not
 * seen yet in the window).
 */
export class WindowLimiter {
  private window = -1;
  /** Totals over all processes at the last sync, for the keys this process served in this window. */
  private readonly known = new Map<string, number>();
  /** This process's requests since its last sync. */
  private pending = new Map<string, number>();
  /**
   * The increments of the sync under way: sent, not yet in `known`. Still counted meanwhile, or a request that
   * came while the statement ran would not see them (the limit passed by a sync's worth of this process's own).
   */
  private inFlight = new Map<string, number>();
  private forgotten = -1;

  constructor(
    private readonly counters: SharedCounters,
    private readonly now: () => number = Date.now,
    readonly windowMs = 60_000,
  ) {}

  /** Counts a request under each key and returns, for each, the requests of the window so far, this one included. */
  hit(keys: readonly string[]): number[] {
    this.roll();
    return keys.map((key) => {
      const mine = (this.pending.get(key) ?? 0) + 1;
      this.pending.set(key, mine);
      return (this.known.get(key) ?? 0) + (this.inFlight.get(key) ?? 0) + mine;
    });
  }

  /** When the current window ends, in milliseconds since the epoch. */
  resetAt(): number {
    this.roll();
    return (this.window + 1) * this.windowMs;
  }

  /**
   * Sends this process's increments and learns the totals; a failure leaves the counts local until the next. The
   * first sync of a window also forgets the windows before it, once its totals are known (never counting a sync's
   * increments twice meanwhile, nor again if forgetting fails).
   */
  async sync(): Promise<void> {
    this.roll();
    const window = this.window;
    const increments = this.pending;
    if (increments.size === 0) return;
    this.pending = new Map();
    this.inFlight = increments;
    let totals: Map<string, number>;
    try {
      totals = await this.counters.add(window, increments);
    } catch {
      // The database is away: count on locally, so that the limit still holds for this process.
      if (window === this.window) for (const [key, count] of increments) this.known.set(key, (this.known.get(key) ?? 0) + count);
      return;
    } finally {
      // In `known` from here on (the totals include them, or the lines above added them), or of a window gone by.
      if (this.inFlight === increments) this.inFlight = new Map();
    }
    if (window !== this.window) return;
    for (const [key, total] of totals) this.known.set(key, Math.max(total, this.known.get(key) ?? 0));
    if (this.forgotten < window) {
      this.forgotten = window;
      // Housekeeping: a failure leaves the old rows to the next window's sync, which forgets everything before it.
      await this.counters.forget(window - 1).catch(() => undefined);
    }
  }

  private roll(): void {
    const window = Math.floor(this.now() / this.windowMs);
    if (window === this.window) return;
    this.window = window;
    this.known.clear();
    this.pending = new Map();
    this.inFlight = new Map();
  }
}
