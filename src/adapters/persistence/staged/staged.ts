import type { DomainEvent, PostRef } from '../../../domain/events.js';
import type { NewNotification } from '../../../domain/notifications/notification.js';
import type { Named } from '../../../domain/conversations/conversation.js';
import type { Reply } from '../../../domain/replies/reply.js';
import type { CounterMove, UserCounter } from '../../../application/counters.js';
import type { MailJob } from '../../../application/mail/mail-jobs.js';
import type { NotificationMailCandidate } from '../../../application/mail/notification-mail.js';
import type { SearchDocument } from '../../../application/search/ports.js';
import type { Sql } from '../database/sql.js';
import type { Statement } from './statement.js';

/** The counter moves of a unit of work, summed by row as they are staged: what the counter writers apply. */
export interface Tally {
  /** New replies and messages, each moving its topic's (or conversation's) count and last reply. */
  added: Extract<CounterMove, { kind: 'reply.added' | 'message.added' }>[];
  recounts: number[];
  nodes: Map<number, number>;
  users: Map<number, Record<UserCounter, number>>;
  months: { userId: number; at: Date; delta: number }[];
}

/** The rows one unit of work staged, by kind; each kind is written by its writer (writers/). */
/** A new conversation (contract §24), its id drawn before: a topic in no node, and who is named in it. */
export interface NewConversation {
  id: number;
  userId: number;
  title: string;
  body: string;
  bodyHtml: string;
  named: Named;
  at: Date;
}

export interface Staged {
  conversations: NewConversation[];
  replies: Reply[];
  counters: Tally;
  events: DomainEvent[];
  /** Held posts' review items (contract §18). */
  holds: (PostRef & { at: Date })[];
  /** Mail to send once this commits. */
  mail: MailJob[];
  /** Search documents by source: the last version staged is the one written. */
  topicDocuments: Map<number, SearchDocument>;
  replyDocuments: Map<number, SearchDocument>;
  /** New notifications, in the batches they were added in (one `notification.created` event each). */
  notifications: (readonly NewNotification[])[];
  /** Topics and replies whose notifications go (they were deleted). */
  unnotified: { topicIds: number[]; replyIds: number[] };
  /** A user's notifications about a topic, read (they opened it). */
  readMarks: { userId: number; topicId: number }[];
  /** Notifications that may be mailed, each once the delay is over (contract §17). */
  notificationMail: NotificationMailCandidate[];
  /** Conversations with new messages for these users, mailed as notifications are (contract §24). */
  messageMail: { userId: number; topicId: number }[];
  /** Read marks moved forward (contract §22): a writer has read what they wrote (a reply null: the opening). */
  writersMarks: { userId: number; topicId: number; replyId: number | null }[];
}

export const nothingStaged = (): Staged => ({
  conversations: [],
  replies: [],
  counters: { added: [], recounts: [], nodes: new Map(), users: new Map(), months: [] },
  events: [],
  holds: [],
  mail: [],
  topicDocuments: new Map(),
  replyDocuments: new Map(),
  notifications: [],
  unnotified: { topicIds: [], replyIds: [] },
  readMarks: [],
  notificationMail: [],
  messageMail: [],
  writersMarks: [],
});

/**
 * One kind of staged row and how it is written: the parts it adds to the unit of work's statement (`write`, only
 * when it has rows), and what must happen before that statement (`prepare`: a lock the statement's snapshot must
 * follow). Each writer has one reason to change: its table and what a move of it means.
 */
export interface StagedWriter {
  readonly name: string;
  prepare?(staged: Staged, sql: Sql): Promise<void>;
  write(staged: Staged, statement: Statement): void;
}
