import type { Topic } from './topic.js';

export interface TopicRepository {
  /** A topic in any state (deleted too), or null: who may see it is the visibility policy's question. */
  find(id: number): Promise<Topic | null>;
  add(topic: Topic): Promise<void>;
  /** A user's topics that are not deleted, by id (a spammer's, to delete them all); never a conversation (§24). */
  authoredBy(userId: number): Promise<Topic[]>;
  /** Up to `limit` visible topics of a node with ids above `afterId`, by id (for batch jobs). */
  visibleInNode(nodeId: number, afterId: number, limit: number): Promise<Topic[]>;
  countVisibleInNode(nodeId: number): Promise<number>;
  /** Idempotent: returns whether a row was added or removed. */
  follow(topicId: number, userId: number): Promise<boolean>;
  unfollow(topicId: number, userId: number): Promise<boolean>;
  favorite(topicId: number, userId: number): Promise<boolean>;
  unfavorite(topicId: number, userId: number): Promise<boolean>;
}
export const TopicRepository = Symbol.for('TopicRepository');
