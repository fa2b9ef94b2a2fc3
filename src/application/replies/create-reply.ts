import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { DENIED, policy } from '../../domain/shared/policy.js';
import { Reply } from '../../domain/replies/reply.js';
import { replyCreated as replyNotifications } from '../../domain/notifications/notification.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, RenderedMarkdown, UnitOfWork } from '../ports.js';
import { mentionedLogins } from '../notifications/notifier.js';
import type { DomainEvents } from '../events.js';
import { replyCreated } from '../../domain/events.js';
import type { ReplyDetailView } from '../read-models.js';
import type { ReplyWriter } from './reply-writer.js';

export class CreateReply {
  constructor(
    private readonly writer: ReplyWriter,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Returns the new reply as the API shows it. In the source's order: token, topic, body, ability; then the
   * record's rules (a closed topic takes no replies, a body has a maximum length). The body is rendered first (it
   * needs no data); then one statement reads the facts, the domain decides, the events are recorded, and one
   * statement writes the reply, its notifications, its counters and what the events add (search index, outbox).
   */
  async execute(actor: Actor, input: { topicId: number; body?: RawParam }): Promise<ReplyDetailView> {
    const user = requireUser(actor);
    const rendered = this.renderIfValid(input.body);
    return this.uow.run(async () => {
      const context = await this.writer.context(input.topicId, user.id, mentionedLogins(rendered?.mentions ?? []));
      const { topic, replyId } = context;
      if (!topic || replyId === null) throw new NotFound('topic');
      const body = read(Text, input.body, 'body');
      if (!policy.createReply(user)) throw new Forbidden(DENIED.createReply);
      if (topic.closed) throw new RuleViolated('Validation failed: Topic is closed and takes no new replies');

      const reply = Reply.write({ topicId: topic.id, userId: user.id, body, bodyHtml: rendered!.html }, this.clock.now());
      reply.id = replyId;
      const notifications = replyNotifications({
        topicId: topic.id,
        replyId,
        topicAuthorId: topic.userId,
        replierId: user.id,
        followerIds: context.followerIds,
        mentionedIds: context.mentionedIds,
        blockedActorFor: context.blockedActorFor,
      });
      // Every notification is for a user the ids were drawn for: the topic's author, a follower, a mention.
      if (notifications.length > context.notificationIds.length) throw new Error('fewer notification ids than notifications');
      const toWrite = notifications.map((notification, i) => ({ ...notification, id: context.notificationIds[i]! }));
      // As RecordedNotifications says it for every other way a notification is made (live streams rely on it).
      if (toWrite.length > 0) {
        const announced = toWrite.map(({ id, userId }) => ({ id, userId }));
        await this.events.record({ type: 'notification.created', notifications: announced });
      }
      await this.events.record(replyCreated(reply));
      await this.writer.write(reply, user.login, toWrite);
      return {
        id: reply.id,
        topicId: reply.topicId,
        body: reply.body,
        bodyHtml: reply.bodyHtml,
        createdAt: reply.createdAt,
        updatedAt: reply.updatedAt,
        action: null,
        likesCount: 0,
        likedUserIds: [],
        deleted: false,
        user: context.replier,
        topicTitle: topic.title,
      };
    });
  }

  /** The rendered body, or null when the body is not valid text (the error is raised in its turn, after the topic's). */
  private renderIfValid(body: RawParam | undefined): RenderedMarkdown | null {
    let text: string;
    try {
      text = read(Text, body, 'body');
    } catch {
      return null;
    }
    // Outside the try: a renderer that fails is a fault to report, not an invalid body.
    return this.markdown.render(text);
  }
}
