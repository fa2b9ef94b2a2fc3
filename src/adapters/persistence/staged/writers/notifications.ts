import type { DomainEvent } from '../../../../domain/events.js';
import type { NewNotification } from '../../../../domain/notifications/notification.js';
import type { Staged, StagedWriter } from '../staged.js';

/**
 * Of each batch of new notifications (`NotificationRepository.addAll`), the index of the `notification.created`
 * event that announces it: the event names the notifications by the ids this statement draws for them.
 */
function announcedBatches(staged: Staged): number[] {
  const created = staged.events.filter(
    (event): event is Extract<DomainEvent, { type: 'notification.created' }> => event.type === 'notification.created',
  );
  return created.map((event) => {
    const batch = staged.notifications.indexOf(event.notifications as readonly NewNotification[]);
    if (batch < 0) throw new Error('notification.created names notifications that were not added with it');
    return batch;
  });
}

/**
 * The users' notifications, last: each statement that writes them moves its users' unread counts (the table's
 * statement triggers, which PostgreSQL runs at the end of the statement, in user order), so every writer takes those
 * rows last, in one order. New ones take their ids here, and their `notification.created` events are written with
 * those ids, after the other events; then the notifications of deleted topics and replies go, and those of a topic
 * its reader opened are read. (No use case inserts and deletes at once: each trigger takes its rows in order.)
 */
export const notifications: StagedWriter = {
  name: 'notifications',
  write(staged, s) {
    const rows = staged.notifications.flatMap((batch, index) => batch.map((notification) => ({ ...notification, batch: index })));
    if (rows.length > 0) {
      s.cte(
        'notifications_drawn',
        `select nextval('notifications_id_seq')::int as id, d.*
    from unnest(${s.column(rows, (x) => x.userId, 'int[]')}, ${s.column(rows, (x) => x.actorId, 'int[]')},
      ${s.column(rows, (x) => x.type, 'text[]')}, ${s.column(rows, (x) => x.topicId ?? null, 'int[]')},
      ${s.column(rows, (x) => x.replyId ?? null, 'int[]')}, ${s.column(rows, (x) => x.nodeId ?? null, 'int[]')},
      ${s.column(rows, (x) => x.mentionType ?? null, 'text[]')}, ${s.column(rows, (x) => x.batch, 'int[]')})
      as d(user_id, actor_id, type, topic_id, reply_id, node_id, mention_type, batch)`,
      );
      s.cte(
        'notified',
        `insert into notifications (id, user_id, actor_id, type, topic_id, reply_id, node_id, mention_type)
    select id, user_id, actor_id, type, topic_id, reply_id, node_id, mention_type from notifications_drawn`,
      );
      const announced = announcedBatches(staged);
      if (announced.length > 0) {
        s.cte(
          'notified_events',
          `insert into events (type, payload)
    select 'notification.created',
           jsonb_build_object('notifications', jsonb_agg(jsonb_build_object('id', id, 'userId', user_id) order by id))
    from notifications_drawn
    where batch = any(${s.param(announced, 'int[]')}) and ${s.has('stored') ? '(select count(*) from stored) >= 0' : 'true'}
    group by batch order by batch`,
        );
      }
    }
    const { topicIds, replyIds } = staged.unnotified;
    if (topicIds.length + replyIds.length > 0) {
      s.cte(
        'unnotified',
        `delete from notifications
    where topic_id = any(${s.param(topicIds, 'int[]')}) or reply_id = any(${s.param(replyIds, 'int[]')})`,
      );
    }
    const marks = staged.readMarks;
    if (marks.length > 0) {
      s.cte(
        'read_marked',
        `update notifications n set read_at = now(), updated_at = now()
    from unnest(${s.column(marks, (x) => x.userId, 'int[]')}, ${s.column(marks, (x) => x.topicId, 'int[]')}) as m(user_id, topic_id)
    where n.user_id = m.user_id and n.topic_id = m.topic_id and n.read_at is null`,
      );
    }
  },
};
