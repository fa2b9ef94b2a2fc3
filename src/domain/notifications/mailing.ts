import type { AccountState, EmailNotifications } from '../users/user.js';
import type { NotificationType } from './notification.js';

/**
 * Who is mailed about a notification (contract §17): the one rule, for queuing a notification's mail when it is
 * made and for writing the mail when it is sent. A notification mail tells of replies and mentions in a topic; the
 * recipient's preference says which of them; only an account in use is mailed.
 */

/** The kinds of notification a mail may tell of. */
export const MAILABLE_TYPES = ['TopicReply', 'Mention'] as const satisfies readonly NotificationType[];
export type MailableType = (typeof MAILABLE_TYPES)[number];

const MAILED_TYPES: Record<EmailNotifications, readonly MailableType[]> = {
  mentions_and_replies: ['TopicReply', 'Mention'],
  mentions: ['Mention'],
  none: [],
};

/** The kinds of notification each preference mails. */
export const mailedTypes = (preference: EmailNotifications): readonly MailableType[] => MAILED_TYPES[preference];

/** Whether a notification of `type` may be mailed to anyone at all. */
export const isMailable = (type: NotificationType): type is MailableType => (MAILABLE_TYPES as readonly string[]).includes(type);

/** Whether an account in `state` is mailed notifications: only one in use (not waiting for a confirmation or approval). */
export const receivesNotificationMail = (state: AccountState): boolean => state === 'active';
