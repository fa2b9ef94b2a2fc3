import { NotFound } from '../../domain/shared/errors.js';
import type { Actor } from '../actor.js';
import type { ReplyPage, ReplyReadModel, TopicReadModel } from '../read-models.js';
import { limit, readPage } from '../inputs.js';

/** A topic's replies are read in pages of up to 1000 (contract §6). */
export const ReplyLimit = limit(0, 1000, 20);

/** A topic's replies by id, deleted ones and system events included (floor numbers stay stable). */
export class ListReplies {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly replies: ReplyReadModel,
  ) {}

  async execute(actor: Actor, input: { topicId: number; offset?: unknown; limit?: unknown }): Promise<ReplyPage> {
    const page = readPage(input, ReplyLimit);
    if (!(await this.topics.isVisible(input.topicId))) throw new NotFound('topic');
    return this.replies.listForTopic(input.topicId, page, actor);
  }
}
