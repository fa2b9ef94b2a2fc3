import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { z } from 'zod';
import { LIKE_TARGETS, type LikeRepository, type LikeTarget, likeCounts } from '../../domain/likes/like-repository.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Id, oneOf, read } from '../inputs.js';
import type { UnitOfWork } from '../ports.js';
import { loadReply } from '../replies/load.js';
import { loadTopic } from '../topics/load.js';

export interface LikeResult {
  obj_type: LikeTarget;
  obj_id: number;
  count: number;
}

/**
 * Like or unlike a topic or reply. Idempotent; liking your own content is ignored; blocked users may like.
 * The counter moves atomically with the like row, so concurrent likes never lose a count.
 */
export const LikeTargetInput = oneOf(LIKE_TARGETS);
/** The parameters of a like, as they are read (and documented). */
export const LikeParams = z.object({ obj_type: LikeTargetInput, obj_id: Id });

export class LikeObject {
  constructor(
    private readonly likes: LikeRepository,
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly replies: ReplyRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, input: { type?: RawParam; id?: RawParam }, like: boolean): Promise<LikeResult> {
    const user = requireUser(actor);
    const type = read(LikeParams.shape.obj_type, input.type, 'obj_type');
    const id = read(LikeParams.shape.obj_id, input.id, 'obj_id');

    return this.uow.run(async () => {
      const ownerId =
        type === 'topic'
          ? (await loadTopic(this.topics, this.nodes, id, user)).userId
          : (await loadReply(this.replies, this.topics, this.nodes, id, user)).reply.userId;
      let count: number;
      if (
        likeCounts(ownerId, user.id) &&
        (await (like ? this.likes.add(type, id, user.id) : this.likes.remove(type, id, user.id)))
      ) {
        count = await this.likes.adjustCount(type, id, like ? +1 : -1);
      } else {
        count = await this.likes.count(type, id);
      }
      return { obj_type: type, obj_id: id, count };
    });
  }
}
