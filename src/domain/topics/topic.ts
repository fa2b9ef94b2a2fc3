import { RuleViolated } from '../shared/errors.js';
import { Post } from '../shared/post.js';
import { requireText } from '../shared/text.js';

/** `ban` is what a ban sets (homeland's grade for it); `excellent` and `normal` are set by their actions. */
export type Grade = 'normal' | 'excellent' | 'ban';

/** The grade of a banned topic: what makes it banned (the visibility policy's `notBanned` reads it). */
export const BAN_GRADE = 'ban' satisfies Grade;

/** A closed topic takes no new reply and no change to one, refused with homeland's words (contract §6). */
export const TOPIC_CLOSED = 'Topic has been closed, no longer accepting create or update replies.';

export const MAX_TITLE = 255;
export const MAX_TOPIC_BODY = 100_000;

export interface TopicContent {
  title: string;
  body: string;
  /** The body rendered by the Markdown port: the domain never parses Markdown itself. */
  bodyHtml: string;
}

/** A held topic waits: its author may edit or withdraw it, and nothing else happens to it until it is approved. */
export const TOPIC_HELD = 'Validation failed: the topic is waiting for approval';

/** A topic that is not public takes no replies until it is reviewed. */
export const TOPIC_IN_REVIEW = 'Topic is waiting for review, no longer accepting replies until then.';

/**
 * The topic aggregate: its content, where it lives (node and lock), its grade and whether it is closed or deleted.
 * Counters (hits, likes, replies, last reply) are not part of it: they change by atomic SQL, never read-modify-write.
 */
export class Topic extends Post {
  nodeId!: number;
  title!: string;
  body!: string;
  bodyHtml!: string;
  lockNode!: boolean;
  grade!: Grade;
  closedAt!: Date | null;
  /** When an administrator pinned it (homeland's "suggest"); null when not pinned. */
  suggestedAt!: Date | null;
  lastActiveAt!: Date;

  static open(input: TopicContent & { userId: number; nodeId: number }, now: Date): Topic {
    const topic = new Topic();
    Object.assign(topic, {
      userId: input.userId,
      nodeId: input.nodeId,
      visibility: 'public',
      ...Topic.validContent(input),
      lockNode: false,
      grade: 'normal',
      closedAt: null,
      suggestedAt: null,
      deletedAt: null,
      deletedById: null,
      lastActiveAt: now,
      createdAt: now,
      updatedAt: now,
    });
    return topic;
  }

  private static validContent(content: TopicContent): TopicContent {
    return {
      title: requireText(content.title, 'Title', MAX_TITLE).trim(),
      body: requireText(content.body, 'Body', MAX_TOPIC_BODY),
      bodyHtml: content.bodyHtml,
    };
  }

  edit(content: TopicContent, now: Date): void {
    Object.assign(this, Topic.validContent(content));
    this.updatedAt = now;
  }

  /**
   * The node rules of an update, exactly as the contract's state table gives them:
   * an administrator moves the topic and locks its node when the node changes; anyone else moves it only while
   * the node is not locked (the rest of the update still applies). Returns whether the topic changed node.
   */
  requestNode(nodeId: number, byAdmin: boolean, now: Date): boolean {
    if (byAdmin) {
      if (nodeId === this.nodeId) return false;
      this.lockNode = true;
    } else if (this.lockNode || nodeId === this.nodeId) {
      return false;
    }
    this.nodeId = nodeId;
    this.updatedAt = now;
    return true;
  }

  /**
   * Moves the topic to the no-point node, locks it there and grades it `ban`. Returns false when it was banned
   * already.
   */
  ban(noPointNodeId: number, now: Date): boolean {
    this.requireReviewed();
    if (this.nodeId === noPointNodeId && this.lockNode && this.grade === BAN_GRADE) return false;
    this.nodeId = noPointNodeId;
    this.lockNode = true;
    this.grade = BAN_GRADE;
    this.updatedAt = now;
    return true;
  }

  isPinned(): boolean {
    return this.suggestedAt !== null;
  }

  /** Pins the topic to the top of the front page. Returns whether it was not pinned. */
  pin(now: Date): boolean {
    this.requireReviewed();
    if (this.isPinned()) return false;
    this.suggestedAt = now;
    return true;
  }

  /** Returns whether it was pinned. */
  unpin(): boolean {
    if (!this.isPinned()) return false;
    this.suggestedAt = null;
    return true;
  }

  isExcellent(): boolean {
    return this.grade === 'excellent';
  }

  /** Returns whether the grade changed. */
  regrade(grade: Grade, now: Date): boolean {
    this.requireReviewed();
    if (this.grade === grade) return false;
    this.grade = grade;
    this.updatedAt = now;
    return true;
  }

  isClosed(): boolean {
    return this.closedAt !== null;
  }

  /** Returns whether the topic was open. */
  close(now: Date): boolean {
    this.requireReviewed();
    if (this.isClosed()) return false;
    this.closedAt = now;
    this.updatedAt = now;
    return true;
  }

  /** Returns whether the topic was closed. */
  reopen(now: Date): boolean {
    this.requireReviewed();
    if (!this.isClosed()) return false;
    this.closedAt = null;
    this.updatedAt = now;
    return true;
  }

  /** Approved: published as if posted now, so it is active now too (it leads the list as a new topic would). */
  override publish(now: Date): boolean {
    if (!super.publish(now)) return false;
    this.lastActiveAt = now;
    return true;
  }

  /** Moderation waits for approval: a held topic is approved or rejected first. */
  private requireReviewed(): void {
    if (this.isHeld()) throw new RuleViolated(TOPIC_HELD);
  }
}
