import { RuleViolated } from '../../domain/shared/errors.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { nodeChanged } from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { ActingUser } from '../actor.js';
import type { DomainEvents } from '../events.js';

/**
 * What follows when a topic changes node, whoever asked for it (update, move, ban): the node counters move
 * and the owner hears of it when an administrator did it. Runs inside the caller's unit of work.
 */
export class TopicRelocation {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly notifications: NotificationRepository,
    private readonly events: DomainEvents,
  ) {}

  async requireNode(nodeId: number): Promise<void> {
    if (!(await this.nodes.findById(nodeId))) throw new RuleViolated('Validation failed: Node does not exist');
  }

  async moved(topic: Topic, fromNodeId: number, actor: ActingUser): Promise<void> {
    await this.movedMany([topic], fromNodeId, actor);
  }

  /** Topics that all left `fromNodeId` (for one node each, or one target in bulk): counters move once per node. */
  async movedMany(topics: readonly Topic[], fromNodeId: number, actor: ActingUser): Promise<void> {
    if (topics.length === 0) return;
    await this.nodes.adjustTopicsCount(fromNodeId, -topics.length);
    const arrivals = new Map<number, number>();
    for (const topic of topics) arrivals.set(topic.nodeId, (arrivals.get(topic.nodeId) ?? 0) + 1);
    for (const [nodeId, count] of arrivals) await this.nodes.adjustTopicsCount(nodeId, count);
    for (const topic of topics) {
      await this.events.record({ type: 'topic.moved', topicId: topic.id, fromNodeId, toNodeId: topic.nodeId, actorId: actor.id });
    }
    if (actor.role === 'admin') {
      await this.notifications.addAll(
        topics.flatMap((topic) =>
          nodeChanged({ topicId: topic.id, ownerId: topic.userId, actorId: actor.id, nodeId: topic.nodeId }),
        ),
      );
    }
  }
}
