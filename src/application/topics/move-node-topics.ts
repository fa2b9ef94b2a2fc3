import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { policy } from '../../domain/shared/policy.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { TopicRelocation } from './relocation.js';
import type { Progress } from '../maintenance/maintenance.js';

export interface MoveNodeTopicsResult {
  from_node_id: number;
  to_node_id: number;
  moved: number;
  batches: number;
}

/**
 * Every visible topic of one node to another, as an administrator's move (locked, owners notified), one
 * transaction per batch so that no lock is held for long and a failure keeps the batches already done.
 */
export class MoveNodeTopics {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly relocation: TopicRelocation,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(
    actor: Actor,
    input: { fromNodeId: number; toNodeId: number; batchSize?: number; reason?: string | null },
    onProgress: Progress = () => undefined,
  ): Promise<MoveNodeTopicsResult> {
    const user = requireUser(actor);
    if (!(await this.nodes.findById(input.fromNodeId))) throw new NotFound(`node ${input.fromNodeId}`);
    if (!(await this.nodes.findById(input.toNodeId))) throw new NotFound(`node ${input.toNodeId}`);
    if (!policy.changeLockedNode(user)) throw new Forbidden();
    if (input.fromNodeId === input.toNodeId) throw new RuleViolated('Validation failed: the two nodes are the same');

    const batchSize = input.batchSize ?? 500;
    const total = await this.topics.countVisibleInNode(input.fromNodeId);
    let moved = 0;
    let batches = 0;
    let afterId = 0;
    onProgress(0, total);
    for (;;) {
      const count = await this.uow.run(async () => {
        const batch = await this.topics.visibleInNode(input.fromNodeId, afterId, batchSize);
        const now = this.clock.now();
        for (const topic of batch) topic.requestNode(input.toNodeId, true, now);
        await this.relocation.movedMany(batch, input.fromNodeId, user, { reason: input.reason ?? null });
        afterId = batch.at(-1)?.id ?? afterId;
        return batch.length;
      });
      if (count === 0) break;
      moved += count;
      batches += 1;
      onProgress(moved, Math.max(total, moved));
    }
    return { from_node_id: input.fromNodeId, to_node_id: input.toNodeId, moved, batches };
  }
}
