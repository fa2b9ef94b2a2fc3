import { NotFound } from '../../domain/shared/errors.js';
import { seesPost } from '../../domain/shared/post.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { Viewer } from '../../domain/users/role.js';

/** A topic `viewer` can see: not deleted, and not held or hidden from them (contract §18); 404 otherwise. */
export async function loadTopic(topics: TopicRepository, id: number, viewer: Viewer): Promise<Topic> {
  const topic = await topics.findVisible(id);
  if (!topic || !seesPost(viewer, topic)) throw new NotFound('topic');
  return topic;
}
