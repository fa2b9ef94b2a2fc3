import { NotFound } from '../../domain/shared/errors.js';
import { seesPost } from '../../domain/shared/post.js';
import type { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { Viewer } from '../../domain/users/role.js';

/** A reply `viewer` can see: neither it nor its topic deleted, or held or hidden from them (contract §18); 404 otherwise. */
export async function loadReply(
  replies: ReplyRepository,
  topics: TopicRepository,
  id: number,
  viewer: Viewer,
): Promise<{ reply: Reply; topic: Topic }> {
  const reply = await replies.findVisible(id);
  const topic = reply && seesPost(viewer, reply) ? await topics.findVisible(reply.topicId) : null;
  if (!reply || !topic || !seesPost(viewer, topic)) throw new NotFound('reply');
  return { reply, topic };
}
