import { NotFound } from '../../domain/shared/errors.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { Viewer } from '../../domain/users/role.js';
import { READERS, readerOf, topicFacts, topicVisibleTo } from '../../domain/visibility/visibility.js';

/** A topic `viewer` may open (READERS.post of the visibility policy); 404 otherwise. */
export async function loadTopic(topics: TopicRepository, id: number, viewer: Viewer): Promise<Topic> {
  const topic = await topics.find(id);
  if (!topic || !topicVisibleTo(READERS.post, readerOf(viewer), topicFacts(topic))) throw new NotFound('topic');
  return topic;
}
