import { NotFound } from '../../domain/shared/errors.js';
import { oneOfOr, read, readPage } from '../inputs.js';
import type { Actor } from '../actor.js';
import type { NodeReadModel, TopicReadModel, TopicView } from '../read-models.js';
import { TOPIC_LIST_TYPES } from '../read-models.js';

export interface ListTopicsInput {
  type?: unknown;
  nodeId?: number | null;
  offset?: unknown;
  limit?: unknown;
}

/** The list type, in any case; an unknown type lists as the default, `last_actived` (contract §6). */
export const TopicListTypeInput = oneOfOr(TOPIC_LIST_TYPES, 'last_actived');

export class ListTopics {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly nodes: NodeReadModel,
  ) {}

  async execute(actor: Actor, input: ListTopicsInput): Promise<TopicView[]> {
    const query = { type: read(TopicListTypeInput, input.type, 'type'), nodeId: input.nodeId ?? null, ...readPage(input) };
    if (query.nodeId !== null && !(await this.nodes.get(query.nodeId))) throw new NotFound('node');
    return this.topics.list(query, actor);
  }
}
