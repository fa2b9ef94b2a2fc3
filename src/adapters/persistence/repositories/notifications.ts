import type { Sql } from '../database/sql.js';
import type { StagedRows } from '../staged/staged-rows.js';
import type { NewNotification } from '../../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../../domain/notifications/notification-repository.js';
import { changed } from './changed.js';
import { SIGNED_OUT, nodeCondition, readerOf } from '../read-models/visibility.js';

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

  /**
   * Locked in user order before they go, as every writer of notifications takes them (see the port): the unread
   * counts their trigger moves are then taken in that order too. Only a node that not everyone reads can hide anything.
   */
  async forgetUnreadable(about: { topicId: number } | { nodeId: number } | { userIds: readonly number[] }): Promise<number[]> {
    const [scope, value] =
      'topicId' in about
        ? ['t.id = $1::int', about.topicId]
        : 'nodeId' in about
          ? ['n.id = $1::int', about.nodeId]
          : ['nt.user_id = any($1::int[])', about.userIds];
    const rows = await this.sql.all<{ user_id: number }>(
      `with doomed as (
         select nt.id, nt.user_id from notifications nt join topics t on t.id = nt.topic_id join nodes n on n.id = t.node_id
         where ${scope} and not ${nodeCondition(SIGNED_OUT, 'n')} and not ${nodeCondition(readerOf('nt.user_id'), 'n')}
         order by nt.user_id, nt.id for update of nt),
       gone as (delete from notifications where id in (select id from doomed) returning user_id)
       select distinct user_id from gone order by user_id`,
      [value],
    );
    return rows.map((row) => row.user_id);
  }
}
