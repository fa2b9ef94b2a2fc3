import { Forbidden, NotFound } from '../../domain/shared/errors.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { policy } from '../../domain/shared/policy.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock, UnitOfWork } from '../ports.js';
import { loadPlacedTopic } from './load.js';
import { mayModerate } from '../../domain/nodes/access.js';
import type { TopicRelocation } from './relocation.js';

/**
 * Node relocation as an administrator's update does it: the topic moves and its node is locked. A node's moderators
 * may do it between nodes they moderate (contract §23).
 */
export class MoveTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly relocation: TopicRelocation,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Returns whether the topic changed node. The audit log keeps a move of someone else's topic with `reason`. */
  async execute(actor: Actor, id: number, nodeId: number, reason: string | null = null): Promise<boolean> {
    const user = requireUser(actor);
    return this.uow.run(async () => {
      const { topic, moderated } = await loadPlacedTopic(this.topics, this.nodes, id, user);
      if (!policy.changeLockedNode(user, { moderated })) throw new Forbidden();
      // The node is named by the caller, as the topic is: an unknown one is not found (not an invalid record).
      const target = await this.nodes.placeFor(nodeId, user.id);
      if (!target) throw new NotFound(`node ${nodeId}`);
      const who = { viewer: user, groupIds: new Set(target.groupIds) };
      if (!policy.changeLockedNode(user, { moderated: mayModerate(target.node.access, who) })) {
        throw new Forbidden('A moderator moves topics only between nodes they moderate.');
      }
      const fromNodeId = topic.nodeId;
      if (!topic.requestNode(nodeId, true, this.clock.now())) return false;
      await this.relocation.moved(topic, fromNodeId, user, { reason });
      return true;
    });
  }
}
