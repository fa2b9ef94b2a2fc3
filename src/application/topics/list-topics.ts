import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import { PageParams, Ref, maybe, oneOfOr } from '../inputs.js';
import { type CallerRef, type Identified, requireUser } from '../actor.js';
import type { Clock } from '../ports.js';
import type { TopicListType, TopicReadModel, TopicView } from '../read-models.js';
import { READER_LIST_TYPES, TOPIC_LIST_TYPES } from '../read-models.js';
import { newSince } from './read-state.js';

/** The list's parameters, read with ListTopicsParams. */
export interface ListTopicsInput {
  type: TopicListType;
  nodeId?: number | null;
  offset: number;
  limit: number;
}

/** The list type, in any case; an unknown type lists as the default, `last_actived` (contract §6). */
export const TopicListTypeInput = oneOfOr(TOPIC_LIST_TYPES, 'last_actived');

/**
 * The parameters of `GET /topics`, by the contract's names, as they are read (and documented). The HTTP adapter
 * reads them, once a request: its front-page cache keys its pages by them before the list is read.
 */
export const ListTopicsParams = z.object({ type: TopicListTypeInput, node_id: maybe(Ref), ...PageParams.shape });

/**
 * A page of topics; the caller's blocks apply (contract §6). The node's existence is checked by the same read. The
 * reader's own lists (`unread`, `new`: contract §22) are read for someone signed in only (401 otherwise).
 */
export class ListTopics {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly clock: Clock,
  ) {}

  async execute(caller: CallerRef, input: ListTopicsInput): Promise<Identified<TopicView[]>> {
    const query = {
      type: input.type,
      nodeId: input.nodeId ?? null,
      offset: input.offset,
      limit: input.limit,
      ...(input.type === 'new' ? { newSince: newSince(this.clock.now()) } : {}),
    };
    const { viewer, result } = await this.topics.list(query, caller);
    if (READER_LIST_TYPES.has(input.type)) requireUser(viewer);
    if (!result) throw new NotFound('node');
    return { viewer, result };
  }
}
