import { NotFound } from '../../domain/shared/errors.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';

export async function loadTopic(topics: TopicRepository, id: number): Promise<Topic> {
  const topic = await topics.findVisible(id);
  if (!topic) throw new NotFound('topic');
  return topic;
}
