import type { Sql } from '../sql.js';
import type { StagedRows } from '../staged/staged-rows.js';
import type { NewNotification } from '../../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../../domain/notifications/notification-repository.js';
import { changed } from './changed.js';

export class SqlNotificationRepository implements NotificationRepository {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  /** Staged for the end of the unit of work (see the port), written with its other staged rows. */
  addAll(notifications: readonly NewNotification[]): Promise<void> {
    return this.staged.notifications(notifications);
  }

  async markRead(userId: number, ids: readonly number[]): Promise<boolean> {
    if (ids.length === 0) return false;
    return changed(
      this.sql,
      `update notifications set read_at = now(), updated_at = now()
       where user_id = $1 and read_at is null and id = any($2::int[])`,
      [userId, ids],
    );
  }

  /** Staged, as `addAll` is (see the port). */
  markReadAbout(userId: number, topicId: number): Promise<void> {
    return this.staged.markRead(userId, topicId);
  }

  deleteOne(userId: number, id: number): Promise<boolean> {
    return changed(this.sql, 'delete from notifications where user_id = $1 and id = $2', [userId, id]);
  }

  deleteAll(userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from notifications where user_id = $1', [userId]);
  }

  /** Staged, as `addAll` is; whose they are is read now. */
  async deleteAbout(about: { topicId: number } | { replyId: number }): Promise<number[]> {
    const [column, id] = 'topicId' in about ? ['topic_id', about.topicId] : ['reply_id', about.replyId];
    const rows = await this.sql.all<{ user_id: number }>(
      `select distinct user_id from notifications where ${column} = $1 order by user_id`,
      [id],
    );
    await this.staged.unnotify('topicId' in about ? { topicIds: [about.topicId] } : { replyIds: [about.replyId] });
    return rows.map((row) => row.user_id);
  }
}
