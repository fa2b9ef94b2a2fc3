import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../database/sql.js';
import { Topic } from '../../../domain/topics/topic.js';
import type { TopicRepository } from '../../../domain/topics/topic-repository.js';
import { changed } from './changed.js';
import { SIGNED_OUT, topicCondition } from '../read-models/visibility.js';
import { READERS } from '../../../domain/visibility/visibility.js';

export class MikroOrmTopicRepository implements TopicRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  find(id: number): Promise<Topic | null> {
    return this.em.findOne(Topic, { id });
  }

  async add(topic: Topic): Promise<void> {
    await this.em.persist(topic).flush();
  }

  /** What the author still has of the forum (READERS.standing): never a conversation, which is its participants'. */
  async authoredBy(userId: number): Promise<Topic[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select t.id from topics t where t.user_id = $1 and ${topicCondition(READERS.standing, SIGNED_OUT, { topic: 't' })}`,
      [userId],
    );
    if (rows.length === 0) return [];
    return this.em.find(Topic, { id: { $in: rows.map((row) => row.id) } }, { orderBy: { id: 'asc' } });
  }

  visibleInNode(nodeId: number, afterId: number, limit: number): Promise<Topic[]> {
    return this.em.find(Topic, { nodeId, deletedAt: null, id: { $gt: afterId } }, { orderBy: { id: 'asc' }, limit });
  }

  async countVisibleInNode(nodeId: number): Promise<number> {
    return this.em.count(Topic, { nodeId, deletedAt: null });
  }

  follow(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'insert into topic_follows (topic_id, user_id) values ($1, $2) on conflict do nothing', [
      topicId,
      userId,
    ]);
  }

  unfollow(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from topic_follows where topic_id = $1 and user_id = $2', [topicId, userId]);
  }

  favorite(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'insert into topic_favorites (user_id, topic_id) values ($1, $2) on conflict do nothing', [
      userId,
      topicId,
    ]);
  }

  unfavorite(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from topic_favorites where user_id = $1 and topic_id = $2', [userId, topicId]);
  }
}
