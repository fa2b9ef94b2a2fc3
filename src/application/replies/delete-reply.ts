import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { Forbidden } from '../../domain/shared/errors.js';
import { policy } from '../../domain/shared/policy.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { moderationActed } from '../../domain/events.js';
import type { DomainEvents } from '../events.js';
import type { UnitOfWork } from '../ports.js';
import type { Posts } from '../posts/posts.js';
import { loadReply } from './load.js';

/** Soft deletion; the topic's counters and last-reply fields are recomputed so they stay true (counters.ts). */
export class DeleteReply {
  constructor(
    private readonly replies: ReplyRepository,
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly posts: Posts,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  /** `reason` is kept by the audit log when the reply was not the actor's own (contract §14). */
  async execute(actor: Actor, id: number, reason: string | null = null): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const { reply, moderated } = await loadReply(this.replies, this.topics, this.nodes, id, user);
      const facts = { userId: reply.userId, isSystemEvent: reply.isSystemEvent(), moderated };
      if (!policy.destroyReply(user, facts)) throw new Forbidden();
      const at = await this.posts.remove(reply, user.id);
      if (reply.userId !== user.id) {
        const target = { type: 'Reply', id: reply.id } as const;
        await this.events.record(moderationActed('reply.delete', user.id, target, { deleted_at: [null, at] }, reason));
      }
    });
  }
}
