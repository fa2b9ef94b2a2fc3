import { InvalidInput, NotFound } from '../../domain/shared/errors.js';
import type { Actor } from '../actor.js';
import type { ReplyPage, ReplyReadModel, TopicReadModel } from '../read-models.js';
import { pageOffset } from '../topics/list-topics.js';

export const REPLY_PAGE_LIMIT = { min: 0, max: 1000, default: 20 } as const;

/** A topic's replies by id, deleted ones and system events included (floor numbers stay stable). */
export class ListReplies {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly replies: ReplyReadModel,
  ) {}

  async execute(actor: Actor, input: { topicId: number; offset?: number; limit?: number }): Promise<ReplyPage> {
    const limit = input.limit ?? REPLY_PAGE_LIMIT.default;
    if (limit < REPLY_PAGE_LIMIT.min || limit > REPLY_PAGE_LIMIT.max) {
      throw new InvalidInput('limit', `limit must be between ${REPLY_PAGE_LIMIT.min} and ${REPLY_PAGE_LIMIT.max}`);
    }
    const offset = pageOffset(input.offset);
    if (!(await this.topics.isVisible(input.topicId))) throw new NotFound('topic');
    return this.replies.listForTopic(input.topicId, { offset, limit }, actor);
  }
}
