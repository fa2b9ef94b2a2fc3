import { NotFound } from '../../domain/shared/errors.js';
import { oneOfOr, read, readPage } from '../inputs.js';
import type { CallerRef, Identified } from '../actor.js';
import type { TopicReadModel, TopicView } from '../read-models.js';
import { TOPIC_LIST_TYPES } from '../read-models.js';

export interface ListTopicsInput {
  type?: unknown;
  nodeId?: number | null;
  offset?: unknown;
  limit?: unknown;
}

/** The list type, in any case; an unknown type lists as the default, `last_actived` (contract §6). */
export const TopicListTypeInput = oneOfOr(TOPIC_LIST_TYPES, 'last_actived');

/** A page of topics; the caller's blocks apply (contract §6). The node's existence is checked by the same read. */
export class ListTopics {
  constructor(private readonly topics: TopicReadModel) {}

  async execute(caller: CallerRef, input: ListTopicsInput): Promise<Identified<TopicView[]>> {
    const query = { type: read(TopicListTypeInput, input.type, 'type'), nodeId: input.nodeId ?? null, ...readPage(input) };
    const { viewer, result } = await this.topics.list(query, caller);
    if (!result) throw new NotFound('node');
    return { viewer, result };
  }
}
