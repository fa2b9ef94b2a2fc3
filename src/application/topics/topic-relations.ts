import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { DomainEvents } from '../events.js';
import { type Actor, requireUser } from '../actor.js';
import type { UnitOfWork } from '../ports.js';
import { loadTopic } from './load.js';

/** Follow or unfollow a topic: idempotent, open to every user (blocked ones included). */
export class FollowTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
  ) {}

  async execute(actor: Actor, id: number, follow: boolean): Promise<void> {
    const user = requireUser(actor);
    await loadTopic(this.topics, this.nodes, id, user);
    await (follow ? this.topics.follow(id, user.id) : this.topics.unfollow(id, user.id));
  }
}

/** Favorite or unfavorite a topic: idempotent; recorded (and so counted) only on a real change. */
export class FavoriteTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, id: number, favorite: boolean): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      await loadTopic(this.topics, this.nodes, id, user);
      const changed = await (favorite ? this.topics.favorite(id, user.id) : this.topics.unfavorite(id, user.id));
      if (changed)
        await this.events.record({ type: favorite ? 'favorite.added' : 'favorite.removed', topicId: id, userId: user.id });
    });
  }
}
