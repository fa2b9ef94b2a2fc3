import { NotFound } from '../../domain/shared/errors.js';
import type { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';

/** A reply that can be seen: not deleted, and neither is its topic. */
export async function loadReply(
  replies: ReplyRepository,
  topics: TopicRepository,
  id: number,
): Promise<{ reply: Reply; topic: Topic }> {
  const reply = await replies.findVisible(id);
  const topic = reply ? await topics.findVisible(reply.topicId) : null;
  if (!reply || !topic) throw new NotFound('reply');
  return { reply, topic };
}
