import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { z } from 'zod';
import { Forbidden, RuleViolated } from '../../domain/shared/errors.js';
import { TOPIC_CLOSED } from '../../domain/topics/topic.js';
import { policy } from '../../domain/shared/policy.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import { loadReply } from './load.js';
import type { DomainEvents } from '../events.js';
import { replyUpdated } from '../../domain/events.js';
import type { PostingRules } from '../review/posting-rules.js';

/** The parameters of a reply's update, as they are read (and documented): its new Markdown body. */
export const UpdateReplyParams = z.object({ body: Text });

export class UpdateReply {
  constructor(
    private readonly replies: ReplyRepository,
    private readonly topics: TopicRepository,
    private readonly nodes: NodeRepository,
    private readonly rules: PostingRules,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * The ability check precedes the parameter check, as the source says; a closed topic's replies stay as they are. A
   * new account's edit keeps its link limit (contract §18).
   */
  async execute(actor: Actor, input: { id: number; body?: RawParam }): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const { reply, topic } = await loadReply(this.replies, this.topics, this.nodes, input.id, user);
      if (!policy.updateReply(user, { userId: reply.userId, isSystemEvent: reply.isSystemEvent() })) throw new Forbidden();
      const body = read(UpdateReplyParams.shape.body, input.body, 'body');
      if (topic.isClosed()) throw new RuleViolated(TOPIC_CLOSED);
      const rendered = this.markdown.render(body);
      reply.edit(body, rendered.html, this.clock.now());
      await this.rules.judgeEdit(user.id, rendered.links);
      await this.events.record(replyUpdated(reply));
    });
  }
}
