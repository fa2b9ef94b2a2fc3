import type { DomainEvent, PostRef } from '../../../domain/events.js';
import type { NewNotification } from '../../../domain/notifications/notification.js';
import type { Reply } from '../../../domain/replies/reply.js';
import type { CounterMove, CounterMoves, UserCounter } from '../../../application/counters.js';
import type { MailJob } from '../../../application/mail/mail-jobs.js';
import type { NotificationMailCandidate } from '../../../application/mail/notification-mail.js';
import type { SearchDocument } from '../../../application/search/ports.js';
import type { Sql } from '../database/sql.js';
import { type NewConversation, type Staged, type Tally, nothingStaged } from './staged.js';
import { Statement } from './statement.js';
import { WRITERS } from './writers.js';

/**
 * A unit of work's rows that go together at its end, in one statement, whatever their number: new replies with the
 * counters they move, the outbox's events, review items, mail jobs, search documents, notifications and their mail.
 * Writing them at the end, in that statement, in the order of `WRITERS`, is what gives every writer the same lock
 * order; it is also one round trip however many rows (a reply that notifies ten users is one statement). The unit
 * of work calls `flush` just before it commits; a unit of work with no other write (reply create)
 * needs no transaction at all, since one statement is atomic by itself. Outside a unit of work, rows are written
 * at once.
 *
 * No NOTIFY: a transaction that notifies takes PostgreSQL's one notification-queue lock at commit, so every
 * writing transaction would commit one after the other; measured on reply create at c=32 (bench:ab), that cost
 * 11–18 % of the throughput, and nothing without it. Processes poll the log instead (event-feed.ts).
 */
export class StagedRows implements CounterMoves {
  private readonly pending = new WeakMap<object, Staged>();

  constructor(private readonly sql: Sql) {}

  /** New conversations (contract §24), first of all. */
  conversations(conversations: readonly NewConversation[]): Promise<void> {
    return this.stage((staged) => staged.conversations.push(...conversations));
  }

  /** New replies (a reply without an id takes the next one when written). */
  replies(replies: readonly Reply[]): Promise<void> {
    return this.stage((staged) => staged.replies.push(...replies));
  }

  move(moves: readonly CounterMove[]): Promise<void> {
    return this.stage((staged) => addMoves(staged.counters, moves));
  }

  events(events: readonly DomainEvent[]): Promise<void> {
    return this.stage((staged) => staged.events.push(...events));
  }

  /** New notifications, as one batch: a `notification.created` event naming them announces them (notifications.ts). */
  notifications(notifications: readonly NewNotification[]): Promise<void> {
    if (notifications.length === 0) return Promise.resolve();
    return this.stage((staged) => staged.notifications.push(notifications));
  }

  /** Mail jobs, queued with the rest. */
  mail(jobs: readonly MailJob[]): Promise<void> {
    return this.stage((staged) => staged.mail.push(...jobs));
  }

  /** Notification mail to hold for its delay (notification-mail.ts). */
  notificationMail(candidates: readonly NotificationMailCandidate[]): Promise<void> {
    return this.stage((staged) => staged.notificationMail.push(...candidates));
  }

  /** Conversations with new messages to mail, held as notification mail is (contract §24). */
  messageMail(entries: readonly { userId: number; topicId: number }[]): Promise<void> {
    return this.stage((staged) => staged.messageMail.push(...entries));
  }

  /** Read marks moved forward to what their readers wrote (contract §22). */
  writersMarks(marks: readonly { userId: number; topicId: number; replyId: number | null }[]): Promise<void> {
    return this.stage((staged) => staged.writersMarks.push(...marks));
  }

  /** The review items of held posts (review-store.ts), opened with the rest. */
  holds(holds: readonly (PostRef & { at: Date })[]): Promise<void> {
    return this.stage((staged) => staged.holds.push(...holds));
  }

  /** The notifications about these topics (and their replies) and replies, deleted with the rest. */
  unnotify(about: { topicIds?: readonly number[]; replyIds?: readonly number[] }): Promise<void> {
    return this.stage((staged) => {
      staged.unnotified.topicIds.push(...(about.topicIds ?? []));
      staged.unnotified.replyIds.push(...(about.replyIds ?? []));
    });
  }

  /** A user's notifications about a topic, marked read with the rest. */
  markRead(userId: number, topicId: number): Promise<void> {
    return this.stage((staged) => staged.readMarks.push({ userId, topicId }));
  }

  documents(documents: readonly SearchDocument[]): Promise<void> {
    return this.stage((staged) => {
      for (const document of documents) {
        if (document.replyId === null) staged.topicDocuments.set(document.topicId, document);
        else staged.replyDocuments.set(document.replyId, document);
      }
    });
  }

  /** Writes what the current unit of work staged. */
  async flush(): Promise<void> {
    const unitOfWork = this.sql.unitOfWork();
    const staged = unitOfWork && this.pending.get(unitOfWork);
    if (!staged) return;
    this.pending.delete(unitOfWork);
    await this.write(staged);
  }

  /** Adds rows to the current unit of work's; outside one, writes them at once. */
  private async stage(add: (staged: Staged) => void): Promise<void> {
    const unitOfWork = this.sql.unitOfWork();
    if (!unitOfWork) {
      const staged = nothingStaged();
      add(staged);
      return this.write(staged);
    }
    let staged = this.pending.get(unitOfWork);
    if (!staged) this.pending.set(unitOfWork, (staged = nothingStaged()));
    add(staged);
  }

  private async write(staged: Staged): Promise<void> {
    for (const writer of WRITERS) await writer.prepare?.(staged, this.sql);
    const statement = new Statement();
    for (const writer of WRITERS) writer.write(staged, statement);
    const built = statement.build();
    if (!built) return;
    const [row] = await this.sql.all<{ reply_ids?: number[] | null }>(built.text, built.values);
    // A reply staged without an id learns it, as an ORM's insert tells it (ids come in order: one per reply).
    const drawn = staged.replies.filter((reply) => reply.id === undefined);
    if (drawn.length > 0) {
      const known = new Set(staged.replies.flatMap((reply) => (reply.id === undefined ? [] : [reply.id])));
      const ids = (row?.reply_ids ?? []).filter((id) => !known.has(id));
      drawn.forEach((reply, i) => (reply.id = ids[i]!));
    }
  }
}

/** Adds counter moves to a unit of work's tally, summed by row. */
function addMoves(tally: Tally, moves: readonly CounterMove[]): void {
  const user = (userId: number, counter: UserCounter, delta: number) => {
    let row = tally.users.get(userId);
    if (!row) {
      row = { topicsCount: 0, repliesCount: 0, favoritesCount: 0, followersCount: 0, followingCount: 0 };
      tally.users.set(userId, row);
    }
    row[counter] += delta;
  };
  for (const move of moves) {
    switch (move.kind) {
      case 'node.topics':
        tally.nodes.set(move.nodeId, (tally.nodes.get(move.nodeId) ?? 0) + move.delta);
        break;
      case 'user':
        user(move.userId, move.counter, move.delta);
        break;
      case 'message.added':
        tally.added.push(move);
        break;
      case 'reply.added':
      case 'reply.removed': {
        const delta = move.kind === 'reply.added' ? +1 : -1;
        if (move.kind === 'reply.added') tally.added.push(move);
        else if (!tally.recounts.includes(move.topicId)) tally.recounts.push(move.topicId);
        user(move.userId, 'repliesCount', delta);
        tally.months.push({ userId: move.userId, at: move.at, delta });
        break;
      }
    }
  }
}
