import type { EventFeed } from '../../application/events.js';
import { RECENT_ANSWER_TTL_MS, RecentAnswers } from '../../application/recent-answers.js';

/** A cached page is served for at most this long after the read that made it began (the one staleness rule). */
export const FRONT_PAGE_TTL_MS = RECENT_ANSWER_TTL_MS;

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

/**
 * The anonymous first pages of the topic lists, as the response's bytes, in this process's memory: the API's
 * `GET /topics` (each type, each node, each page size) and the forum's list pages (contract §21a), under keys of
 * their own (issue 18: most traffic is anonymous reads of these, which Discourse serves from an anonymous
 * cache too). Kept as every recent answer is (recent-answers.ts): never more than a second stale after a write
 * committed in any process, emptied by a change to topics or replies.
 */
export class FrontPageCache<Body = Buffer> extends RecentAnswers<Body> {
  constructor(feed: EventFeed, now: () => number = Date.now, ttlMs = FRONT_PAGE_TTL_MS, maxEntries = FRONT_PAGE_MAX_ENTRIES) {
    super(feed, CHANGES_LISTS, { now, ttlMs, maxEntries });
  }
}
