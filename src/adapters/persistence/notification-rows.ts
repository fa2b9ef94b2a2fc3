import type { NewNotification } from '../../domain/notifications/notification.js';

/**
 * New notifications as one insert of parallel arrays (one statement whatever their number), shared by the
 * notification repository and the reply writer (which runs it inside its own statement). `first` is the number of
 * the first of the eight parameters that `notificationColumns` binds. A notification without an id draws one.
 */
export const insertNotifications = (first: number): string => {
  const p = (i: number) => `$${first + i}`;
  return `insert into notifications (id, user_id, actor_id, type, topic_id, reply_id, node_id, mention_type)
    select coalesce(d.id, nextval('notifications_id_seq')), d.user_id, d.actor_id, d.type, d.topic_id, d.reply_id,
      d.node_id, d.mention_type
    from unnest(${p(0)}::int[], ${p(1)}::int[], ${p(2)}::int[], ${p(3)}::text[], ${p(4)}::int[], ${p(5)}::int[],
      ${p(6)}::int[], ${p(7)}::text[]) as d(id, user_id, actor_id, type, topic_id, reply_id, node_id, mention_type)
    returning id, user_id`;
};

/** A notification with an id drawn ahead keeps it; one without draws its own. */
export function notificationColumns(notifications: readonly (NewNotification & { id?: number })[]): unknown[] {
  const column = <T>(pick: (n: NewNotification & { id?: number }) => T) => notifications.map(pick);
  return [
    column((n) => n.id ?? null),
    column((n) => n.userId),
    column((n) => n.actorId),
    column((n) => n.type),
    column((n) => n.topicId ?? null),
    column((n) => n.replyId ?? null),
    column((n) => n.nodeId ?? null),
    column((n) => n.mentionType ?? null),
  ];
}
