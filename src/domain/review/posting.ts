import { Forbidden, RuleViolated, TooManyRequests } from '../shared/errors.js';
import type { Role } from '../users/role.js';

/**
 * The rules a post passes before it is written (contract §18): who may post at all (silenced and suspended accounts
 * may not), the limits on new accounts, and whether the post waits for an administrator's approval (holds).
 */

/** What the rules need to know of a post's author. */
export interface Author {
  id: number;
  role: Role;
  /** Signed up through the sign-up page or API (§16b): not created by an administrator, not imported. */
  selfRegistered: boolean;
  joinedAt: Date;
  silencedUntil: Date | null;
  suspendedUntil: Date | null;
}

/** What the author posted before, read only when a rule below needs it (`needsHistory`). */
export interface PostingHistory {
  /** Posts of the kind being written (topics, replies, or messages) made in the last NEW_ACCOUNT_HOURS, whatever became of them. */
  recent: number;
  /** Posts of theirs in the forum, topics and replies together, that were ever published (approved, or never held). */
  published: number;
  /** The same body, posted by them within NEW_ACCOUNT_HOURS in another topic. */
  repeated: boolean;
}

/**
 * The configuration of the rules (HOLD_FIRST_POSTS, NEW_USER_TOPICS_PER_DAY, NEW_USER_REPLIES_PER_DAY,
 * NEW_USER_MESSAGES_PER_DAY).
 */
export interface PostingLimits {
  holdFirstPosts: number;
  topicsPerDay: number;
  repliesPerDay: number;
  messagesPerDay: number;
}

/** A topic, a reply in one, or a message (contract §24: a conversation's opening or a reply in it). */
export type PostKind = 'topic' | 'reply' | 'message';

const PER_DAY = {
  topic: { limit: 'topicsPerDay', what: 'topics' },
  reply: { limit: 'repliesPerDay', what: 'replies' },
  message: { limit: 'messagesPerDay', what: 'messages' },
} as const satisfies Record<PostKind, { limit: keyof PostingLimits; what: string }>;

/** How long an account that signed up itself counts as new. */
export const NEW_ACCOUNT_HOURS = 24;
const NEW_ACCOUNT_MS = NEW_ACCOUNT_HOURS * 3_600_000;
/** Links to elsewhere a new account's post may hold. */
export const NEW_ACCOUNT_LINKS = 2;

const isAdmin = (author: Author) => author.role === 'admin';
const until = (date: Date | null, now: Date): Date | null => (date !== null && date > now ? date : null);

/** An account in its first day that signed up itself; administrators are never limited. */
export function isNewAccount(author: Author, now: Date): boolean {
  return !isAdmin(author) && author.selfRegistered && now.getTime() - author.joinedAt.getTime() < NEW_ACCOUNT_MS;
}

/** Silenced or suspended now: refused with a message that says until when (403). */
export function requireMayPost(author: Author, now: Date): void {
  const suspended = until(author.suspendedUntil, now);
  if (suspended) throw new Forbidden(`This account is suspended until ${suspended.toISOString()}.`);
  const silenced = until(author.silencedUntil, now);
  if (silenced) throw new Forbidden(`This account is silenced until ${silenced.toISOString()}: it may read and like, not post.`);
}

/** Whether the rules of a new post need the author's history (a new account, or holds that may apply). */
export function needsHistory(author: Author, limits: PostingLimits, now: Date): boolean {
  return isNewAccount(author, now) || mayBeHeld(author, limits);
}

const mayBeHeld = (author: Author, limits: PostingLimits) =>
  limits.holdFirstPosts > 0 && author.selfRegistered && !isAdmin(author);

/**
 * A new post's rules, in order: a new account's daily limit (429, until its first day is over), its links, the same
 * body again (400); then whether it waits for approval: an account that signed up itself holds its first
 * `holdFirstPosts` posts, until that many were published. Returns whether the post is held.
 */
export function judgeNewPost(
  post: { kind: PostKind; links: number },
  author: Author,
  history: PostingHistory | null,
  limits: PostingLimits,
  now: Date,
): { held: boolean } {
  if (!needsHistory(author, limits, now)) return { held: false };
  if (!history) throw new Error('the rules of this post need its author’s history');
  if (isNewAccount(author, now)) {
    const { limit, what } = PER_DAY[post.kind];
    const allowed = limits[limit];
    if (history.recent >= allowed) {
      const endsIn = Math.ceil((author.joinedAt.getTime() + NEW_ACCOUNT_MS - now.getTime()) / 1000);
      throw new TooManyRequests(
        Math.max(endsIn, 1),
        `New accounts may post ${allowed} ${what} in their first ${NEW_ACCOUNT_HOURS} hours; try again later.`,
      );
    }
    requireFewLinks(post.links);
    if (history.repeated) {
      throw new RuleViolated('Validation failed: Body was already posted in another topic within 24 hours');
    }
  }
  // A message is never held: holding it would show a private conversation to the administrators who approve it.
  return { held: post.kind !== 'message' && mayBeHeld(author, limits) && history.published < limits.holdFirstPosts };
}

/** An edit keeps the new-account link limit: what a new post may not hold, an edit may not add. */
export function judgeEdit(post: { links: number }, author: Author, now: Date): void {
  if (isNewAccount(author, now)) requireFewLinks(post.links);
}

/** Whether an edit's rules depend on who wrote it at all: only past the new-account link limit. */
export const editNeedsAuthor = (post: { links: number }): boolean => post.links > NEW_ACCOUNT_LINKS;

function requireFewLinks(links: number): void {
  if (links > NEW_ACCOUNT_LINKS) {
    throw new RuleViolated(
      `Validation failed: Body has ${links} links; new accounts may post at most ${NEW_ACCOUNT_LINKS} in a post`,
    );
  }
}
