import { NotFound } from '../../domain/shared/errors.js';
import type { CallerRef, Identified } from '../actor.js';
import type { ReplyPage, ReplyReadModel } from '../read-models.js';
import { limit, pageParams, readAll } from '../inputs.js';

/** A topic's replies are read in pages of up to 1000 (contract §6). */
export const ReplyLimit = limit(0, 1000, 20);
/** The parameters of a topic's replies, as they are read (and documented). */
export const ListRepliesParams = pageParams(ReplyLimit);

/** A topic's replies by id, deleted ones and system events included (floor numbers stay stable). */
export class ListReplies {
  constructor(private readonly replies: ReplyReadModel) {}

  async execute(
    caller: CallerRef,
    input: { topicId: number; offset?: unknown; limit?: unknown },
  ): Promise<Identified<ReplyPage>> {
    const page = readAll(ListRepliesParams, input);
    const { viewer, result } = await this.replies.listForTopic(input.topicId, page, caller);
    if (!result) throw new NotFound('topic');
    return { viewer, result };
  }
}
