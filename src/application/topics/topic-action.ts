import { z } from 'zod';
import { Forbidden } from '../../domain/shared/errors.js';
import { type RawParam, oneOf, read } from '../inputs.js';
import { DENIED, policy } from '../../domain/shared/policy.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { Reply, type SystemEvent } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, type ActingUser, requireUser } from '../actor.js';
import { type AuditAction, type AuditChanges, moderationActed } from '../../domain/events.js';
import type { DomainEvents } from '../events.js';
import type { Clock, UnitOfWork } from '../ports.js';
import { loadPlacedTopic } from './load.js';
import type { TopicRelocation } from './relocation.js';

export const TOPIC_ACTIONS = ['excellent', 'unexcellent', 'normal', 'ban', 'close', 'open', 'suggest', 'unsuggest'] as const;
export type TopicActionType = (typeof TOPIC_ACTIONS)[number];

export const TopicActionInput = oneOf(TOPIC_ACTIONS);
/** The parameters of a moderation action, as they are read (and documented); `reason` is read before. */
export const TopicActionParams = z.object({ type: TopicActionInput });

/** What an action did: nothing, or a change with the system event it shows among the replies (pins show none). */
type Outcome = { event: SystemEvent | null } | null;

/**
 * The moderation actions of `POST /topics/:id/action` (and `/ban`, and forumctl): each changes the topic and, when
 * something really changed, records a system event among its replies. Repeating an action is harmless.
 */
export class TopicAction {
  constructor(
    private readonly topics: TopicRepository,
    private readonly replies: ReplyRepository,
    private readonly nodes: NodeRepository,
    private readonly relocation: TopicRelocation,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * A ban, and any action on someone else's topic, is a moderation act: the audit log keeps it with what it
   * changed and `reason` (contract §14).
   */
  async execute(actor: Actor, id: number, type: RawParam, reason: string | null = null): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const { topic, moderated } = await loadPlacedTopic(this.topics, this.nodes, id, user);
      const action = read(TopicActionParams.shape.type, type, 'type');
      const before = moderatedFields(topic);
      const outcome = await this.apply(action, topic, user, moderated);
      if (!outcome) return;
      const { event } = outcome;
      if (event) await this.replies.add(Reply.event({ topicId: topic.id, userId: user.id, action: event }, this.clock.now()));
      if (ADMINISTRATIVE.has(action) || topic.userId !== user.id) {
        const changes = changed(before, moderatedFields(topic));
        await this.events.record(moderationActed(AUDITED[action], user.id, { type: 'Topic', id: topic.id }, changes, reason));
      }
    });
  }

  /**
   * Applies the action; returns what it changed, or null when nothing changed. `moderated`: the user moderates the
   * topic's node (contract §23), where a node's moderators act as administrators do.
   */
  private async apply(action: TopicActionType, topic: Topic, user: ActingUser, moderated: boolean): Promise<Outcome> {
    const now = this.clock.now();
    const placed = { userId: topic.userId, moderated };
    const shown = (changed: boolean, event: SystemEvent | null): Outcome => (changed ? { event } : null);
    switch (action) {
      case 'ban': {
        if (!policy.banTopic(user, placed)) throw new Forbidden(DENIED.banTopic);
        const fromNodeId = topic.nodeId;
        const noPoint = await this.nodes.noPoint();
        if (!topic.ban(noPoint.id, now)) return null;
        if (fromNodeId !== noPoint.id) await this.relocation.moved(topic, fromNodeId, user, { audited: false });
        await this.events.record({ type: 'topic.banned', topicId: topic.id, actorId: user.id });
        return { event: 'ban' };
      }
      case 'excellent':
        if (!policy.gradeTopic(user, placed)) throw new Forbidden();
        return shown(topic.regrade('excellent', now), 'excellent');
      case 'unexcellent':
      case 'normal':
        if (!policy.gradeTopic(user, placed)) throw new Forbidden();
        return shown(topic.regrade('normal', now), 'unexcellent');
      case 'close':
        if (!policy.closeTopic(user, placed)) throw new Forbidden();
        return shown(topic.close(now), 'close');
      case 'open':
        if (!policy.closeTopic(user, placed)) throw new Forbidden();
        return shown(topic.reopen(now), 'reopen');
      case 'suggest':
        if (!policy.pinTopic(user, placed)) throw new Forbidden();
        return shown(topic.pin(now), null);
      case 'unsuggest':
        if (!policy.pinTopic(user, placed)) throw new Forbidden();
        return shown(topic.unpin(), null);
    }
  }
}

/** Acts only administrators may do: audited even on their own topics. */
const ADMINISTRATIVE = new Set<TopicActionType>(['ban', 'suggest', 'unsuggest']);

const AUDITED: Record<TopicActionType, AuditAction> = {
  ban: 'topic.ban',
  excellent: 'topic.excellent',
  unexcellent: 'topic.unexcellent',
  normal: 'topic.unexcellent',
  close: 'topic.close',
  open: 'topic.open',
  suggest: 'topic.suggest',
  unsuggest: 'topic.unsuggest',
};

/** What the actions may change, by the API's field names. */
function moderatedFields(topic: Topic): Record<string, unknown> {
  return {
    node_id: topic.nodeId,
    lock_node: topic.lockNode,
    grade: topic.grade,
    closed_at: topic.closedAt,
    suggested_at: topic.suggestedAt,
  };
}

function changed(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, value] of Object.entries(after)) {
    const old = before[field];
    const same = old instanceof Date && value instanceof Date ? old.getTime() === value.getTime() : old === value;
    if (!same) changes[field] = [old, value];
  }
  return changes;
}
