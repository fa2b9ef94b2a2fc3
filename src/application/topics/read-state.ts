import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import { type ActingUser, type Actor, type CallerRef, type Identified, requireUser } from '../actor.js';
import { Ref, maybe, readAll } from '../inputs.js';
import type { Clock } from '../ports.js';
import type { ReadCounts, TopicReadModel } from '../read-models.js';

/** A topic is new to a reader who never opened it for this long after it was created (contract §22). */
export const NEW_TOPIC_DAYS = 14;

/** When a topic created now stops being new. */
export const newSince = (now: Date): Date => new Date(now.getTime() - NEW_TOPIC_DAYS * 24 * 60 * 60 * 1000);

/** `GET /topics/unread_count` (contract §22): the caller's topics with unread replies, and new topics. */
export class CountUnreadTopics {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly clock: Clock,
  ) {}

  /** The caller is identified by the count's own statement: 401 for anonymous callers all the same. */
  async execute(caller: CallerRef): Promise<Identified<ReadCounts>> {
    const { viewer, result } = await this.topics.readCounts(caller, newSince(this.clock.now()));
    requireUser(viewer);
    return { viewer, result: result! };
  }
}

/** Where a reader's marks are moved by hand (contract §22). */
export interface ReadMarks {
  /**
   * Moves the reader's mark on a topic they may open up to `upTo` (one of its replies), or to its last reply; only
   * forward. `topic` false when they may not open it; `reply` false when `upTo` is not one of its replies.
   */
  markRead(reader: ActingUser, topicId: number, upTo: number | null): Promise<{ topic: boolean; reply: boolean }>;
  /**
   * Opens a topic the reader never opened (or marked unread), as a show found it: a mark with no reply read. They
   * may open it (the show found so).
   */
  open(readerId: number, topicId: number): Promise<void>;
  /** Forgets the reader's mark on a topic they may open (as if never opened); false when they may not open it. */
  forget(reader: ActingUser, topicId: number): Promise<boolean>;
  /**
   * Marks read every topic of the reader's lists (of one node) that they opened or that is new to them (created
   * since `newSince`); false when the node is not there.
   */
  markAllRead(reader: ActingUser, nodeId: number | null, newSince: Date): Promise<boolean>;
}
export const ReadMarks = Symbol.for('ReadMarks');

/** `reply_id`: up to which reply; every reply without it. */
export const MarkReadParams = z.object({ reply_id: maybe(Ref) });
/** `node_id`: only that node's topics; every list's without it. */
export const MarkAllReadParams = z.object({ node_id: maybe(Ref) });

/** `POST /topics/:id/read` and `DELETE /topics/:id/read` (contract §22). */
export class MarkTopicRead {
  constructor(private readonly marks: ReadMarks) {}

  async execute(actor: Actor, topicId: number, input: { reply_id?: unknown }, read = true): Promise<void> {
    const reader = requireUser(actor);
    if (!read) {
      if (!(await this.marks.forget(reader, topicId))) throw new NotFound('topic');
      return;
    }
    const { reply_id: upTo = null } = readAll(MarkReadParams, input);
    const marked = await this.marks.markRead(reader, topicId, upTo);
    if (!marked.topic) throw new NotFound('topic');
    if (!marked.reply) throw new NotFound(`reply ${upTo}`);
  }
}

/** `POST /topics/read` (contract §22): every topic of the reader's lists, or of one node, read. */
export class MarkAllTopicsRead {
  constructor(
    private readonly marks: ReadMarks,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { node_id?: unknown }): Promise<void> {
    const reader = requireUser(actor);
    const { node_id: nodeId = null } = readAll(MarkAllReadParams, input);
    if (!(await this.marks.markAllRead(reader, nodeId, newSince(this.clock.now())))) throw new NotFound('node');
  }
}
