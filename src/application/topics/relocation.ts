import { RuleViolated } from '../../domain/shared/errors.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { nodeChanged } from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { ActingUser } from '../actor.js';

/**
 * What follows when a topic changes node, whoever asked for it (update, move, ban): the node counters move
 * and the owner hears of it when an administrator did it. Runs inside the caller's unit of work.
 */
export class TopicRelocation {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly notifications: NotificationRepository,
  ) {}

  async requireNode(nodeId: number): Promise<void> {
    if (!(await this.nodes.findById(nodeId))) throw new RuleViolated('Validation failed: Node does not exist');
  }

  async moved(topic: Topic, fromNodeId: number, actor: ActingUser): Promise<void> {
    await this.nodes.adjustTopicsCount(fromNodeId, -1);
    await this.nodes.adjustTopicsCount(topic.nodeId, +1);
    if (actor.role === 'admin') {
      await this.notifications.addAll(
        nodeChanged({ topicId: topic.id, ownerId: topic.userId, actorId: actor.id, nodeId: topic.nodeId }),
      );
    }
  }
}
