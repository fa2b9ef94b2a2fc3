import { NotFound } from '../../domain/shared/errors.js';
import { mayModerate } from '../../domain/nodes/access.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { Viewer } from '../../domain/users/role.js';
import {
  READERS,
  type Reader,
  type TopicFacts,
  readerOf,
  topicFacts,
  topicVisibleTo,
} from '../../domain/visibility/visibility.js';

/** A topic as the visibility rule reads it, with its node, and `viewer` as a reader who may be asked their groups. */
export async function placed(
  nodes: NodeRepository,
  topic: Topic,
  viewer: Viewer,
): Promise<{ facts: TopicFacts; reader: Reader }> {
  const place = await nodes.placeFor(topic.nodeId, viewer.id);
  if (!place) throw new NotFound('topic');
  return { facts: { ...topicFacts(topic), node: place.node }, reader: readerOf(viewer, place.groupIds) };
}

/**
 * A topic `viewer` may open (READERS.post of the visibility policy), and whether they moderate its node (contract
 * §23); 404 otherwise.
 */
export async function loadPlacedTopic(
  topics: TopicRepository,
  nodes: NodeRepository,
  id: number,
  viewer: Viewer,
): Promise<{ topic: Topic; moderated: boolean }> {
  const topic = await topics.find(id);
  if (!topic) throw new NotFound('topic');
  const { facts, reader } = await placed(nodes, topic, viewer);
  if (!topicVisibleTo(READERS.post, reader, facts)) throw new NotFound('topic');
  return { topic, moderated: moderatedBy(reader, facts) };
}

/** A topic `viewer` may open (READERS.post of the visibility policy); 404 otherwise. */
export async function loadTopic(topics: TopicRepository, nodes: NodeRepository, id: number, viewer: Viewer): Promise<Topic> {
  return (await loadPlacedTopic(topics, nodes, id, viewer)).topic;
}

/** Whether `reader` moderates the node of the topic `facts` says (read with the node). */
export const moderatedBy = (reader: Reader, facts: TopicFacts): boolean =>
  facts.node !== undefined && mayModerate(facts.node.access, { viewer: reader.viewer, groupIds: reader.groupIds ?? new Set() });
