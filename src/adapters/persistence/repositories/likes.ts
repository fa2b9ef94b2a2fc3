import type { Sql } from '../database/sql.js';
import type { LikeRepository, LikeTarget } from '../../../domain/likes/like-repository.js';
import { changed } from './changed.js';

/** Fixed table names per target: the only text spliced into these statements, from a closed map. */
const LIKE_TABLES: Record<LikeTarget, string> = { topic: 'topics', reply: 'replies' };

export class SqlLikeRepository implements LikeRepository {
  constructor(private readonly sql: Sql) {}

  add(target: LikeTarget, targetId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'insert into likes (target_type, target_id, user_id) values ($1, $2, $3) on conflict do nothing', [
      target,
      targetId,
      userId,
    ]);
  }

  remove(target: LikeTarget, targetId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from likes where target_type = $1 and target_id = $2 and user_id = $3', [
      target,
      targetId,
      userId,
    ]);
  }

  async adjustCount(target: LikeTarget, targetId: number, delta: number): Promise<number> {
    const rows = await this.sql.all<{ likes_count: number }>(
      `update ${LIKE_TABLES[target]} set likes_count = greatest(likes_count + $1, 0) where id = $2 returning likes_count`,
      [delta, targetId],
    );
    return rows[0]?.likes_count ?? 0;
  }

  async count(target: LikeTarget, targetId: number): Promise<number> {
    const rows = await this.sql.all<{ likes_count: number }>(`select likes_count from ${LIKE_TABLES[target]} where id = $1`, [
      targetId,
    ]);
    return rows[0]?.likes_count ?? 0;
  }
}
