import { Forbidden, RuleViolated } from '../../domain/shared/errors.js';
import { DENIED, policy } from '../../domain/shared/policy.js';
import { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import { loadTopic } from '../topics/load.js';
import type { Notifier } from '../notifications/notifier.js';
import type { DomainEvents } from '../events.js';
import { replyCreated } from '../../domain/events.js';

export class CreateReply {
  constructor(
    private readonly topics: TopicRepository,
    private readonly replies: ReplyRepository,
    private readonly users: UserRepository,
    private readonly notifier: Notifier,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Returns the new reply's id. In the source's order: token, topic, body, ability; then the record's rules
   * (a closed topic takes no replies). The reply and the topic's counters land in one transaction.
   */
  async execute(actor: Actor, input: { topicId: number; body?: RawParam }): Promise<number> {
    const user = requireUser(actor);
    return this.uow.run(async () => {
      const topic = await loadTopic(this.topics, input.topicId);
      const body = read(Text, input.body, 'body');
      if (!policy.createReply(user)) throw new Forbidden(DENIED.createReply);
      if (topic.isClosed()) throw new RuleViolated('Validation failed: Topic is closed and takes no new replies');

      const rendered = this.markdown.render(body);
      const reply = Reply.write({ topicId: topic.id, userId: user.id, body, bodyHtml: rendered.html }, this.clock.now());
      await this.replies.add(reply);
      await this.notifier.replyCreated(reply, topic, rendered.mentions);
      await this.events.record(replyCreated(reply));
      // Counter rows are shared by every writer: update them last, so their row locks are held only until commit.
      await this.topics.recordReply(topic.id, { id: reply.id, userId: user.id, login: user.login, at: reply.createdAt });
      await this.users.adjustCounter(user.id, 'repliesCount', +1);
      await this.users.adjustMonthlyReplies(user.id, reply.createdAt, +1);
      return reply.id;
    });
  }
}
