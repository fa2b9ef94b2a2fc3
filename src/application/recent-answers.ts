import type { EventFeed, PublishedEvent } from './events.js';

/**
 * An answer is served for at most this long after the read that made it began: the staleness rule of every
 * cache of what everyone reads (at most a second after a write committed in any process), with room for the
 * request that serves it.
 */
export const RECENT_ANSWER_TTL_MS = 800;

export interface RecentAnswersOptions {
  now?: () => number;
  ttlMs?: number;
  /** Past it, expired answers go first, then the oldest. */
  maxEntries?: number;
}

interface Entry<Body> {
  body: Body;
  expiresAt: number;
}

/**
 * Answers kept in this process's memory, each for at most `ttlMs` from the moment its read began, and all of them
 * forgotten when the event feed (which every process hears within a fifth of a second) brings an event whose type
 * `changes` matches: so never more than a second stale after a write committed anywhere. A read that began before
 * such an event is not kept; concurrent misses of one key share one read. What a performance trick in front of a
 * port keeps (the anonymous front pages, the node list): the port's callers never know it is there.
 */
export class RecentAnswers<Body> {
  private readonly entries = new Map<string, Entry<Body>>();
  private readonly filling = new Map<string, Promise<Body>>();
  /** Bumped by every change: a read that began before it is not kept. */
  private generation = 0;
  private unsubscribe: (() => void) | null = null;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(
    feed: EventFeed,
    private readonly changes: RegExp,
    { now = Date.now, ttlMs = RECENT_ANSWER_TTL_MS, maxEntries = 500 }: RecentAnswersOptions = {},
  ) {
    this.now = now;
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
    this.unsubscribe = feed.subscribe((events) => this.heard(events));
  }

  /** The kept answer for `key`, or the one `read` makes (kept for the next callers). */
  async get(key: string, read: () => Promise<Body>): Promise<Body> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.body;
    const pending = this.filling.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const expiresAt = this.now() + this.ttlMs;
    const fill = read();
    this.filling.set(key, fill);
    try {
      const body = await fill;
      if (generation === this.generation) this.keep(key, { body, expiresAt });
      return body;
    } finally {
      if (this.filling.get(key) === fill) this.filling.delete(key);
    }
  }

  /** How many answers are kept now. */
  get size(): number {
    return this.entries.size;
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.entries.clear();
  }

  private keep(key: string, entry: Entry<Body>): void {
    this.entries.delete(key); // set again below: the newest last, in the map's order
    if (this.entries.size >= this.maxEntries) {
      const now = this.now();
      for (const [kept, { expiresAt }] of this.entries) if (expiresAt <= now) this.entries.delete(kept);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, entry);
  }

  private heard(events: readonly PublishedEvent[]): void {
    if (!events.some((event) => this.changes.test(event.type))) return;
    this.generation++;
    this.entries.clear();
    // Callers from now on read afresh rather than wait for a read that began before the change.
    this.filling.clear();
  }
}
