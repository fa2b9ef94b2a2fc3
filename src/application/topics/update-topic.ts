import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { z } from 'zod';
import { Forbidden } from '../../domain/shared/errors.js';
import { policy } from '../../domain/shared/policy.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Ref, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import { loadTopic } from './load.js';
import type { TopicRelocation } from './relocation.js';
import type { DomainEvents } from '../events.js';
import { topicUpdated } from '../../domain/events.js';
import type { PostingRules } from '../review/posting-rules.js';

/** The parameters of a topic's update, as the use case reads them (and the document shows them); `reason` is read before. */
export const UpdateTopicParams = z.object({ title: Text, body: Text, node_id: Ref });

export interface UpdateTopicInput {
  id: number;
  title?: RawParam;
  body?: RawParam;
  nodeId?: RawParam;
  /** Kept by the audit log when an administrator moves someone else's topic. */
  reason?: string | null;
}

export class UpdateTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly relocation: TopicRelocation,
    private readonly rules: PostingRules,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * The permission is checked before the parameters: who may not edit learns nothing about the input. A new account's
   * edit keeps its link limit (contract §18); an edit of a held topic is recorded when it is approved (domain/events.ts).
   */
  async execute(actor: Actor, input: UpdateTopicInput): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const topic = await loadTopic(this.topics, this.nodes, input.id, user);
      if (!policy.updateTopic(user, topic)) throw new Forbidden();
      const title = read(UpdateTopicParams.shape.title, input.title, 'title');
      const nodeId = read(UpdateTopicParams.shape.node_id, input.nodeId, 'node_id');
      const body = read(UpdateTopicParams.shape.body, input.body, 'body');

      const now = this.clock.now();
      const rendered = this.markdown.render(body);
      topic.edit({ title, body, bodyHtml: rendered.html }, now);
      await this.rules.judgeEdit(user.id, rendered.links);
      await this.events.record(topicUpdated(topic));
      const fromNodeId = topic.nodeId;
      if (topic.requestNode(nodeId, policy.changeLockedNode(user), now)) {
        await this.relocation.requireNode(nodeId, user);
        await this.relocation.moved(topic, fromNodeId, user, { reason: input.reason ?? null });
      }
    });
  }
}
