import { InvalidInput, NotFound } from '../../domain/shared/errors.js';
import type { Actor } from '../actor.js';
import type { NodeReadModel, TopicListType, TopicReadModel, TopicView } from '../read-models.js';
import { TOPIC_LIST_TYPES } from '../read-models.js';

export interface ListTopicsInput {
  type?: string;
  nodeId?: number | null;
  offset?: number;
  limit?: number;
}

export const PAGE_LIMIT = { min: 1, max: 150, default: 20 } as const;

export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return PAGE_LIMIT.default;
  if (limit < PAGE_LIMIT.min || limit > PAGE_LIMIT.max) {
    throw new InvalidInput('limit', `limit must be between ${PAGE_LIMIT.min} and ${PAGE_LIMIT.max}`);
  }
  return limit;
}

export function pageOffset(offset: number | undefined): number {
  if (offset === undefined) return 0;
  if (offset < 0) throw new InvalidInput('offset', 'offset must not be negative');
  return offset;
}

/** An unknown type lists as the default, `last_actived` (contract §6). */
export function topicListType(type: string | undefined): TopicListType {
  const lowered = (type ?? '').toLowerCase();
  return (TOPIC_LIST_TYPES as readonly string[]).includes(lowered) ? (lowered as TopicListType) : 'last_actived';
}

export class ListTopics {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly nodes: NodeReadModel,
  ) {}

  async execute(actor: Actor, input: ListTopicsInput): Promise<TopicView[]> {
    const query = {
      type: topicListType(input.type),
      nodeId: input.nodeId ?? null,
      offset: pageOffset(input.offset),
      limit: pageLimit(input.limit),
    };
    if (query.nodeId !== null && !(await this.nodes.get(query.nodeId))) throw new NotFound('node');
    return this.topics.list(query, actor);
  }
}
