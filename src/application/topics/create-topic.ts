import { z } from 'zod';
import { DENIED, policy } from '../../domain/shared/policy.js';
import { Forbidden } from '../../domain/shared/errors.js';
import { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Ref, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import type { TopicRelocation } from './relocation.js';
import type { DomainEvents } from '../events.js';
import { topicCreated } from '../../domain/events.js';
import type { PostingRules } from '../review/posting-rules.js';

/** The parameters of a new topic, as they are read (and documented), by the contract's names. */
export const CreateTopicParams = z.object({ title: Text, body: Text, node_id: Ref });

export interface CreateTopicInput {
  title?: RawParam;
  body?: RawParam;
  nodeId?: RawParam;
}

export class CreateTopic {
  constructor(
    private readonly topics: TopicRepository,
    private readonly relocation: TopicRelocation,
    private readonly rules: PostingRules,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Returns the new topic's id. Checks parameters before the permission, as the contract orders it; then the node,
   * and the posting rules (contract §18: a silenced account, a new account's limits; a held topic waits for
   * approval, and sets off nothing until then).
   */
  async execute(actor: Actor, input: CreateTopicInput): Promise<number> {
    const user = requireUser(actor);
    const title = read(CreateTopicParams.shape.title, input.title, 'title');
    const nodeId = read(CreateTopicParams.shape.node_id, input.nodeId, 'node_id');
    const body = read(CreateTopicParams.shape.body, input.body, 'body');
    if (!policy.createTopic(user)) throw new Forbidden(DENIED.createTopic);

    return this.uow.run(async () => {
      const author = await this.rules.author(user.id);
      this.rules.requireMayPost(author);
      const rendered = this.markdown.render(body);
      const topic = Topic.open({ userId: user.id, nodeId, title, body, bodyHtml: rendered.html }, this.clock.now());
      await this.relocation.requireNode(nodeId, user);
      const { held } = await this.rules.judge(author, { kind: 'topic', body, topicId: null, links: rendered.links });
      if (held) topic.hold();
      await this.topics.add(topic);
      await this.events.record(topicCreated(topic, rendered.mentions));
      return topic.id;
    });
  }
}
