import type { StagedWriter } from './staged.js';
import { mailJobs } from './writers/mail-jobs.js';
import { monthCounters } from './writers/month-counters.js';
import { newConversations } from './writers/new-conversations.js';
import { newReplies } from './writers/new-replies.js';
import { nodeCounters } from './writers/node-counters.js';
import { notificationMail } from './writers/notification-mail.js';
import { notifications } from './writers/notifications.js';
import { outbox } from './writers/outbox.js';
import { reviewHolds } from './writers/review-holds.js';
import { searchDocuments } from './writers/search-documents.js';
import { topicCounters } from './writers/topic-counters.js';
import { userCounters } from './writers/user-counters.js';
import { writersMarks } from './writers/writers-marks.js';

/**
 * The lock order of every writer (issue 30), as one list: the statement that ends a unit of work writes its staged
 * rows in this order, and the aggregates' own rows go before all of them (the ORM flushes first). Two units of work
 * that lock the same rows in different orders deadlock, and PostgreSQL aborts one of them; in this order they wait
 * for each other instead. Topics, nodes, users and months lock their rows in id order within their step; the
 * notifications' unread counts are taken last, in user order, by their triggers at the end of the statement.
 */
export const WRITERS: readonly StagedWriter[] = [
  newConversations,
  newReplies,
  topicCounters,
  nodeCounters,
  userCounters,
  monthCounters,
  writersMarks,
  outbox,
  reviewHolds,
  mailJobs,
  searchDocuments,
  notifications,
  notificationMail,
];
