import {
  type Author,
  type PostKind,
  type PostingHistory,
  type PostingLimits,
  NEW_ACCOUNT_HOURS,
  editNeedsAuthor,
  isNewAccount,
  judgeEdit,
  judgeNewPost,
  needsHistory,
  requireMayPost,
} from '../../domain/review/posting.js';
import { NotFound } from '../../domain/shared/errors.js';
import type { Clock } from '../ports.js';

/** What the posting rules read of an author and of what they posted before (contract §18). */
export interface PostingFacts {
  author(userId: number): Promise<Author | null>;
  /**
   * The author's history for a new post: `recent` and `repeated` only for a new account (zero and false otherwise),
   * `published` counted up to `publishedUpTo` (enough to tell whether holds still apply).
   */
  history(
    userId: number,
    post: { kind: PostKind; body: string; topicId: number | null },
    options: { since: Date; newAccount: boolean; publishedUpTo: number },
  ): Promise<PostingHistory>;
}
export const PostingFacts = Symbol.for('PostingFacts');

/** A new post, as the rules judge it: its kind, its Markdown, its topic (null: a new topic) and its links to elsewhere. */
export interface NewPost {
  kind: PostKind;
  body: string;
  topicId: number | null;
  links: number;
}

/**
 * The posting rules of contract §18, applied inside the unit of work of a post: silenced and suspended accounts may
 * not post (403), new accounts are limited (429, 400), and an account that signed up itself has its first posts
 * held. The history is read only when a rule needs it: a trusted account's post costs nothing here.
 */
export class PostingRules {
  constructor(
    private readonly facts: PostingFacts,
    private readonly limits: PostingLimits,
    private readonly clock: Clock,
  ) {}

  /** The author as the rules know them (a reply's target read brings them along instead: ReplyTargets). */
  async author(userId: number): Promise<Author> {
    const author = await this.facts.author(userId);
    if (!author) throw new NotFound('user');
    return author;
  }

  /** A silenced or suspended account may not post (403): checked with the other permissions, before the record's rules. */
  requireMayPost(author: Author): void {
    requireMayPost(author, this.clock.now());
  }

  /** A new post's rules, after the record's own: refuses what they refuse; returns whether the post waits for approval. */
  async judge(author: Author, post: NewPost): Promise<{ held: boolean }> {
    const now = this.clock.now();
    const history = needsHistory(author, this.limits, now)
      ? await this.facts.history(author.id, post, {
          since: new Date(now.getTime() - NEW_ACCOUNT_HOURS * 3_600_000),
          newAccount: isNewAccount(author, now),
          publishedUpTo: this.limits.holdFirstPosts,
        })
      : null;
    return judgeNewPost(post, author, history, this.limits, now);
  }

  /** An edit by `editorId` that leaves `links` links to elsewhere in the post (the editor is read only past the limit). */
  async judgeEdit(editorId: number, links: number): Promise<void> {
    if (!editNeedsAuthor({ links })) return;
    judgeEdit({ links }, await this.author(editorId), this.clock.now());
  }
}
