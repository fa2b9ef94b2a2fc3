import { ACCOUNT_STATES, EMAIL_NOTIFICATIONS } from '../../../../domain/users/user.js';
import { mailedTypes, receivesNotificationMail } from '../../../../domain/notifications/mailing.js';
import type { StagedWriter } from '../staged.js';

/**
 * The rule of who is mailed (domain/notifications/mailing.ts) as data for the statement: each preference with each
 * kind of notification it mails, and the account states that are mailed. The recipients' rows are read where the
 * entries are written, so the rule is applied to them as they stand then.
 */
const MAILED = EMAIL_NOTIFICATIONS.flatMap((preference) => mailedTypes(preference).map((type) => ({ preference, type })));
const MAILED_STATES = ACCOUNT_STATES.filter(receivesNotificationMail);

/**
 * The notification mail waiting out its delay (contract §17), after the notifications: one entry per recipient and
 * topic; the first notification of a topic sets when it was queued, later ones find the entry there (a topic's burst
 * goes out as one mail). NotificationMailQueue (../../notification-mail-queue.ts) moves the entries due onto the job
 * queue.
 */
export const notificationMail: StagedWriter = {
  name: 'notification mail',
  write({ notificationMail: c, messageMail: m }, s) {
    if (m.length > 0) {
      // Messages are no notifications (contract §24), but wait out the same delay under their own preference.
      s.cte(
        'message_mail_held',
        `insert into notification_mail_queue (user_id, topic_id)
    select u.id, m.topic_id
    from unnest(${s.column(m, (x) => x.userId, 'int[]')}, ${s.column(m, (x) => x.topicId, 'int[]')}) as m(user_id, topic_id)
    join users u on u.id = m.user_id
    where u.email_messages = 'always' and u.state = any(${s.param(MAILED_STATES, 'text[]')})
    order by u.id, m.topic_id
    on conflict do nothing`,
      );
    }
    if (c.length === 0) return;
    s.cte(
      'notification_mail_held',
      `insert into notification_mail_queue (user_id, topic_id)
    select distinct c.user_id, c.topic_id
    from unnest(${s.column(c, (x) => x.userId, 'int[]')}, ${s.column(c, (x) => x.topicId, 'int[]')},
      ${s.column(c, (x) => x.type, 'text[]')}) as c(user_id, topic_id, type)
    join users u on u.id = c.user_id
    join unnest(${s.column(MAILED, (x) => x.preference, 'text[]')}, ${s.column(MAILED, (x) => x.type, 'text[]')})
      as mailed(preference, type) on mailed.preference = u.email_notifications and mailed.type = c.type
    where u.state = any(${s.param(MAILED_STATES, 'text[]')})
    order by c.user_id, c.topic_id
    on conflict do nothing`,
    );
  },
};
