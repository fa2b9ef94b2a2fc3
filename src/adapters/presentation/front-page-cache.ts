import type { EventFeed, PublishedEvent } from '../../application/events.js';

/**
 * A cached answer is served for at most this long after the read that made it began: the staleness rule (at most
 * a second), with room for the request that serves it.
 */
export const FRONT_PAGE_TTL_MS = 800;

/**
 * At most this many pages are kept (types × nodes × page sizes is more than a quiet forum should hold): past it,
 * expired pages go first, then the oldest. 500 pages of 20 topics are about 7 MB; of 150, under 60 MB.
 */
export const FRONT_PAGE_MAX_ENTRIES = 500;

/**
 * What changes a topic list: topics and replies (counts, last reply, order), and what readers may see of a post (a
 * topic hidden by its flags leaves every list at once, contract §18; a node whose readers change, §23). Likes and
 * hits are left to the TTL.
 */
const CHANGES_LISTS = /^(topic|reply)\.|^post\.(hidden|unhidden)$|^node\.access_changed$/;

interface Entry<Body> {
  body: Body;
  expiresAt: number;
}

/**
 * The anonymous first pages of the topic lists, as the response's bytes, in this process's memory: the API's
 * `GET /topics` (each type, each node, each page size) and the forum's list pages (contract §21a), under keys of
 * their own (issue 18: most traffic is anonymous reads of these, which Discourse serves from an anonymous
 * cache too). Never more than a second stale after a write committed in any process: every entry lives at most
 * FRONT_PAGE_TTL_MS from the moment its read began, and a change to topics or replies, which every process hears
 * of from the event feed within a fifth of a second, empties the cache before that. Concurrent misses of one key
 * share one read. At most FRONT_PAGE_MAX_ENTRIES pages are kept.
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
    private readonly maxEntries = FRONT_PAGE_MAX_ENTRIES,
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
      if (generation === this.generation) this.keep(key, { body, expiresAt });
      return body;
    } finally {
      if (this.filling.get(key) === fill) this.filling.delete(key);
    }
  }

  /** How many pages are kept now. */
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
    if (!events.some((event) => CHANGES_LISTS.test(event.type))) return;
    this.generation++;
    this.entries.clear();
    // Requests from now on read afresh rather than wait for a read that began before the change.
    this.filling.clear();
  }
}
