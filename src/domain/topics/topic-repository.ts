import type { Topic } from './topic.js';

export interface TopicRepository {
  /** A topic that is not deleted, or null. */
  findVisible(id: number): Promise<Topic | null>;
  add(topic: Topic): Promise<void>;
  /** Idempotent: returns whether a row was added or removed. */
  follow(topicId: number, userId: number): Promise<boolean>;
  unfollow(topicId: number, userId: number): Promise<boolean>;
  favorite(topicId: number, userId: number): Promise<boolean>;
  unfavorite(topicId: number, userId: number): Promise<boolean>;
}
export const TopicRepository = Symbol.for('TopicRepository');
