import { Forbidden } from '../../domain/shared/errors.js';
import { DENIED } from '../../domain/shared/policy.js';
import { mayStartTopics } from '../../domain/nodes/access.js';
import { readableNode } from '../nodes/readable.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { ActingUser } from '../actor.js';
import { moderationActed, topicMoved } from '../../domain/events.js';
import type { DomainEvents } from '../events.js';

/** How a move is kept by the audit log: with a reason, or not at all (a ban is kept as a ban). */
export interface MoveAudit {
  reason?: string | null;
  audited?: boolean;
}

/**
 * What follows when a topic changes node, whoever asked for it (update, move, ban): the move is recorded, and
 * what follows a move follows its event (the node counters: counters.ts; the owner hears of it when an
 * administrator did it: notifications/producer.ts). Runs inside the caller's unit of work.
 */
export class TopicRelocation {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly events: DomainEvents,
  ) {}

  /**
   * The node `user` is to place a topic in: one that they may start topics in. Contract §6: a well-formed id that
   * names no node is 404, as wherever a node is looked up (homeland's), and so is one they may not read (§23); one
   * where they may read but not start topics is 403.
   */
  async requireNode(nodeId: number, user: ActingUser): Promise<void> {
    const place = await readableNode(this.nodes, nodeId, user);
    if (!mayStartTopics(place.node.access, { viewer: user, groupIds: new Set(place.groupIds) })) {
      throw new Forbidden(DENIED.startTopicsInNode);
    }
  }

  async moved(topic: Topic, fromNodeId: number, actor: ActingUser, audit: MoveAudit = {}): Promise<void> {
    await this.movedMany([topic], fromNodeId, actor, audit);
  }

  /**
   * Topics that all left `fromNodeId` (for one node each, or one target in bulk).
   * A move of someone else's topic is a moderation act, kept by the audit log with `audit.reason`.
   */
  async movedMany(topics: readonly Topic[], fromNodeId: number, actor: ActingUser, audit: MoveAudit = {}): Promise<void> {
    if (topics.length === 0) return;
    for (const topic of topics) {
      await this.events.record(topicMoved(topic, fromNodeId, actor));
      if (audit.audited !== false && topic.userId !== actor.id) {
        const target = { type: 'Topic', id: topic.id } as const;
        const changes = { node_id: [fromNodeId, topic.nodeId] as [number, number] };
        await this.events.record(moderationActed('topic.move', actor.id, target, changes, audit.reason));
      }
    }
  }
}
