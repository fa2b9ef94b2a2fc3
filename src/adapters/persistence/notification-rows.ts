import type { NewNotification } from '../../domain/notifications/notification.js';

/**
 * New notifications as one insert of parallel arrays (one statement whatever their number), shared by the
 * notification repository and the reply writer (which runs it inside its own statement). `first` is the number of
 * the first of the seven parameters that `notificationColumns` binds.
 */
export const insertNotifications = (first: number): string => {
  const p = (i: number) => `$${first + i}`;
  return `insert into notifications (user_id, actor_id, type, topic_id, reply_id, node_id, mention_type)
    select * from unnest(${p(0)}::int[], ${p(1)}::int[], ${p(2)}::text[], ${p(3)}::int[], ${p(4)}::int[], ${p(5)}::int[], ${p(6)}::text[])
    returning id, user_id`;
};

export function notificationColumns(notifications: readonly NewNotification[]): unknown[] {
  const column = <T>(pick: (n: NewNotification) => T) => notifications.map(pick);
  return [
    column((n) => n.userId),
    column((n) => n.actorId),
    column((n) => n.type),
    column((n) => n.topicId ?? null),
    column((n) => n.replyId ?? null),
    column((n) => n.nodeId ?? null),
    column((n) => n.mentionType ?? null),
  ];
}
