import { NotFound } from '../../domain/shared/errors.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { Viewer } from '../../domain/users/role.js';
import { READERS, replyFacts, visibleTo } from '../../domain/visibility/visibility.js';
import { moderatedBy, placed } from '../topics/load.js';

/**
 * A reply `viewer` may open, in its topic (READERS.post of the visibility policy), and whether they moderate its node
 * (contract §23); 404 otherwise.
 */
export async function loadReply(
  replies: ReplyRepository,
  topics: TopicRepository,
  nodes: NodeRepository,
  id: number,
  viewer: Viewer,
): Promise<{ reply: Reply; topic: Topic; moderated: boolean }> {
  const reply = await replies.find(id);
  const topic = reply ? await topics.find(reply.topicId) : null;
  if (!reply || !topic) throw new NotFound('reply');
  const { facts, reader } = await placed(nodes, topic, viewer);
  if (!visibleTo(READERS.post, reader, { topic: facts, reply: replyFacts(reply) })) throw new NotFound('reply');
  return { reply, topic, moderated: moderatedBy(reader, facts) };
}
