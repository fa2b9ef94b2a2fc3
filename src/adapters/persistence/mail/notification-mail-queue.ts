import { MAIL_ATTEMPTS, MAIL_FLAGS, MAIL_TASK } from './mail-task.js';
import type { Sql } from '../database/sql.js';
import type { StagedRows } from '../staged/staged-rows.js';
import type { NotificationMailCandidate, NotificationMailQueue } from '../../../application/mail/notification-mail.js';

/**
 * The notification mail waiting out its delay (contract §17): rows of `notification_mail_queue`, one per
 * recipient and topic, held with the notifications they follow (`hold`, staged: staged/writers/notification-mail.ts
 * applies the rule of who is mailed). Once a row is EMAIL_DELAY_MINUTES old, it is moved onto the job queue as a
 * `notifications` mail job, in one statement: deleted and queued together, so that a mail is neither lost nor queued
 * twice, whichever processes move at once (`skip locked`: each row goes to one of them).
 */
export class SqlNotificationMailQueue implements NotificationMailQueue {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
    private readonly delayMinutes: number,
  ) {}

  /** With the unit of work's other rows, after its notifications. */
  hold(candidates: readonly NotificationMailCandidate[]): Promise<void> {
    return this.staged.notificationMail(candidates);
  }

  /** With the unit of work's other rows: staged/writers/notification-mail.ts applies `email_messages`. */
  holdMessage(conversationId: number, recipientIds: readonly number[]): Promise<void> {
    return this.staged.messageMail(recipientIds.map((userId) => ({ userId, topicId: conversationId })));
  }

  /**
   * Moves what is due onto the job queue, at most `limit` rows; how many it moved. A conversation's entry (a topic in
   * no node, contract §24) becomes a `messages` job, which mails what was written since the entry was queued.
   */
  async moveDue(limit = 1_000): Promise<number> {
    const [row] = await this.sql.all<{ moved: number }>(
      `with due as (
         delete from notification_mail_queue q
         using (select user_id, topic_id from notification_mail_queue
                where queued_at <= now() - make_interval(mins => $1)
                order by queued_at limit $2 for update skip locked) d
         where q.user_id = d.user_id and q.topic_id = d.topic_id
         returning q.user_id, q.topic_id, q.queued_at),
       jobs as (
         select count(*)::int as moved,
                array_agg(row('${MAIL_TASK}',
                              case when t.node_id is null
                                then json_build_object('kind', 'messages', 'userId', due.user_id, 'topicId', due.topic_id,
                                                       'since', to_json(due.queued_at))
                                else json_build_object('kind', 'notifications', 'userId', due.user_id, 'topicId', due.topic_id) end,
                              null, now(), ${MAIL_ATTEMPTS}, null, null, ${MAIL_FLAGS})::graphile_worker.job_spec
                          order by due.user_id, due.topic_id) as specs
         from due join topics t on t.id = due.topic_id)
       select jobs.moved from jobs, lateral (select count(*) from graphile_worker.add_jobs(jobs.specs)) queued
       where jobs.moved > 0`,
      [this.delayMinutes, limit],
    );
    return row?.moved ?? 0;
  }
}
