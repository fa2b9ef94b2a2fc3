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
import { loadPlacedTopic } from './load.js';

/** Soft deletion: the topic stays in the database, recorded with who deleted it, and answers 404 from then on. */
export class DeleteTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly replies: ReplyRepository,
    private readonly posts: Posts,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  /** `reason` is kept by the audit log when the topic was not the actor's own (contract §14). */
  async execute(actor: Actor, id: number, reason: string | null = null): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const { topic, moderated } = await loadPlacedTopic(this.topics, this.nodes, id, user);
      const hasRepliesFromOthers = await this.replies.hasVisibleRepliesFromOthers(topic.id, topic.userId);
      if (!policy.destroyTopic(user, { userId: topic.userId, hasRepliesFromOthers, moderated })) throw new Forbidden();
      const at = await this.posts.remove(topic, user.id);
      if (topic.userId !== user.id) {
        const target = { type: 'Topic', id: topic.id } as const;
        await this.events.record(moderationActed('topic.delete', user.id, target, { deleted_at: [null, at] }, reason));
      }
    });
  }
}
