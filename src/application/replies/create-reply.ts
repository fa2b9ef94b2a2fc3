import { mayReply } from '../../domain/nodes/access.js';
import { z } from 'zod';
import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { DENIED, policy } from '../../domain/shared/policy.js';
import { Reply } from '../../domain/replies/reply.js';
import { TOPIC_CLOSED, TOPIC_IN_REVIEW } from '../../domain/topics/topic.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import { replyCreated } from '../../domain/events.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, RenderedMarkdown, UnitOfWork } from '../ports.js';
import type { DomainEvents } from '../events.js';
import type { UserView } from '../read-models.js';
import type { ReplyTargets } from './reply-targets.js';
import { mentionedLogins } from '../notifications/producer.js';
import type { PostingRules } from '../review/posting-rules.js';

/** A reply just written, with what the API shows beside it. */
export interface CreatedReply {
  reply: Reply;
  topicTitle: string;
  author: UserView;
}

/** The parameters of a new reply, as they are read (and documented): its Markdown body. */
export const CreateReplyParams = z.object({ body: Text });

export class CreateReply {
  constructor(
    private readonly targets: ReplyTargets,
    private readonly replies: ReplyRepository,
    private readonly rules: PostingRules,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * In the source's order: token, topic, body, ability; then the record's rules (a closed topic, or one waiting for
   * review, takes no replies; a body has a maximum length) and the posting rules (contract §18: a silenced account,
   * a new account's limits; a held reply waits for approval). What follows a reply (notifications, counters, the
   * search index, webhooks) follows its event, which a held reply does not record until it is approved.
   */
  async execute(actor: Actor, input: { topicId: number; body?: RawParam }): Promise<CreatedReply> {
    const user = requireUser(actor);
    const rendered = this.renderIfValid(input.body);
    return this.uow.run(async () => {
      const target = await this.targets.find(input.topicId, user.id, mentionedLogins(rendered?.mentions ?? []));
      if (!target) throw new NotFound('topic');
      const body = read(CreateReplyParams.shape.body, input.body, 'body');
      if (!policy.createReply(user)) throw new Forbidden(DENIED.createReply);
      if (!mayReply(target.topic.nodeAccess, { viewer: user, groupIds: new Set(target.replierGroupIds) })) {
        throw new Forbidden(DENIED.replyInNode);
      }
      this.rules.requireMayPost(target.author);
      if (target.topic.closed) throw new RuleViolated(TOPIC_CLOSED);
      if (target.topic.visibility !== 'public') throw new RuleViolated(TOPIC_IN_REVIEW);
      const post = { kind: 'reply', body, topicId: target.topic.id, links: rendered!.links } as const;
      const { held } = await this.rules.judge(target.author, post);

      const reply = Reply.write({ topicId: target.topic.id, userId: user.id, body, bodyHtml: rendered!.html }, this.clock.now());
      if (held) reply.hold();
      reply.id = target.replyId;
      await this.replies.add(reply);
      await this.events.record(replyCreated(reply, rendered!.mentions));
      return { reply, topicTitle: target.topic.title, author: target.replier };
    });
  }

  /** The rendered body, or null when the body is not valid text (the error is raised in its turn, after the topic's). */
  private renderIfValid(body: RawParam | undefined): RenderedMarkdown | null {
    let text: string;
    try {
      text = read(CreateReplyParams.shape.body, body, 'body');
    } catch {
      return null;
    }
    // Outside the try: a renderer that fails is a fault to report, not an invalid body.
    return this.markdown.render(text);
  }
}
