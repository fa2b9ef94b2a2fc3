import type { EventFeed, PublishedEvent } from '../../application/events.js';

/**
 * A cached answer is served for at most this long after the read that made it began: the staleness rule (at most
 * a second), with room for the request that serves it.
 */
export const FRONT_PAGE_TTL_MS = 800;

/** What changes a topic list: topics and replies (counts, last reply, order). Likes and hits are left to the TTL. */
const CHANGES_LISTS = /^(topic|reply)\./;

interface Entry<Body> {
  body: Body;
  expiresAt: number;
}

/**
 * The anonymous first pages of `GET /topics` (each type, each node, each page size), as the response's bytes, in this
 * process's memory (issue 18: most traffic is anonymous reads of these, which Discourse serves from an anonymous
 * cache too). Never more than a second stale after a write committed in any process: every entry lives at most
 * FRONT_PAGE_TTL_MS from the moment its read began, and a change to topics or replies, which every process hears
 * of from the event feed within a fifth of a second, empties the cache before that. Concurrent misses of one key
 * share one read.
 */
export class FrontPageCache<Body = Buffer> {
  private readonly entries = new Map<string, Entry<Body>>();
  private readonly filling = new Map<string, Promise<Body>>();
  /** Bumped by every change: a read that began before it is not kept. */
  private generation = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    feed: EventFeed,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = FRONT_PAGE_TTL_MS,
  ) {
    this.unsubscribe = feed.subscribe((events) => this.heard(events));
  }

  /** The cached answer for `key`, or the one `read` makes (kept for the next requests). */
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
      if (generation === this.generation) this.entries.set(key, { body, expiresAt });
      return body;
    } finally {
      if (this.filling.get(key) === fill) this.filling.delete(key);
    }
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.entries.clear();
  }

  private heard(events: readonly PublishedEvent[]): void {
    if (!events.some((event) => CHANGES_LISTS.test(event.type))) return;
    this.generation++;
    this.entries.clear();
    // Requests from now on read afresh rather than wait for a read that began before the change.
    this.filling.clear();
  }
}
