import { NotFound } from '../../domain/shared/errors.js';
import type { CallerRef, Identified } from '../actor.js';
import type { Page, ReplyPage } from '../read-models.js';
import { limit, pageParams, readAll } from '../inputs.js';

/** A topic's replies are read in pages of up to 1000 (contract §6). */
export const ReplyLimit = limit(0, 1000, 20);
/** The parameters of a topic's replies, as they are read (and documented). */
export const ListRepliesParams = pageParams(ReplyLimit);

/**
 * Where a topic's replies are read by someone: the page (null when the topic is not theirs to open), and, for a
 * reader signed in, their mark moved up to the page's last reply (contract §22), in one go.
 */
export interface ReplyReading {
  /** `shown`: how many of the page's replies the reader is shown (a page may read one more, to know of a next). */
  read(topicId: number, page: Page, caller: CallerRef, shown?: number): Promise<Identified<ReplyPage | null>>;
}
export const ReplyReading = Symbol.for('ReplyReading');

/**
 * A topic's replies by id, deleted ones and system events included (floor numbers stay stable). A write for someone
 * signed in: reading a page of replies is reading the topic up to its last one (contract §22).
 */
export class ListReplies {
  constructor(private readonly replies: ReplyReading) {}

  async execute(
    caller: CallerRef,
    input: { topicId: number; offset?: unknown; limit?: unknown; shown?: number },
  ): Promise<Identified<ReplyPage>> {
    const page = readAll(ListRepliesParams, input);
    const { viewer, result } = await this.replies.read(input.topicId, page, caller, input.shown);
    if (!result) throw new NotFound('topic');
    return { viewer, result };
  }
}
