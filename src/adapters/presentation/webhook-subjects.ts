import type { ReplyReadModel, TopicReadModel, UserReadModel } from '../../application/read-models.js';
import type { WebhookSubjects } from '../../application/webhooks/webhooks.js';
import type { WebhookEvent } from '../../domain/events.js';
import type { Wire } from './wire.js';
import { ANONYMOUS, READERS, topicVisibleTo } from '../../domain/visibility/visibility.js';
import { BAN_GRADE } from '../../domain/topics/topic.js';
import type { ReviewReadModel } from '../../application/review/ports.js';

/** Who a review item is shown as to a webhook: the queue is an administrator's, and so are webhooks. */
const ADMINISTRATOR = { id: 0, role: 'admin' } as const;

/**
 * The `data` of a delivery (contract §13): the Topic, Reply or User as the API shows it to someone signed out
 * (abilities all false), in its state when the delivery is first tried. A deleted topic or reply shows
 * `deleted: true` and no text, as the API shows a deleted reply; so does one that someone signed out may not open
 * (READERS.webhook: held or hidden, contract §18). What is gone altogether is sent as its id. A review event's data is its review item
 * as the review queue shows it (webhooks are an administrator's).
 */
export class WireWebhookSubjects implements WebhookSubjects {
  constructor(
    private readonly topics: TopicReadModel,
    private readonly replies: ReplyReadModel,
    private readonly users: UserReadModel,
    private readonly review: ReviewReadModel,
    private readonly wire: Wire,
  ) {}

  async view(event: WebhookEvent, payload: Record<string, unknown>): Promise<unknown> {
    switch (event.split('.')[0]) {
      case 'topic':
        return this.topic(payload.topicId as number);
      case 'reply':
        return this.reply(payload.replyId as number);
      case 'post':
      case 'review':
        return this.reviewItem(payload.itemId as number);
      default:
        return this.user(payload.userId as number);
    }
  }

  private async topic(id: number): Promise<unknown> {
    const found = await this.topics.detailInAnyState(id);
    if (!found) return { id };
    const shown = this.wire.topicDetail(found.topic, null);
    const { topic } = found;
    const facts = {
      userId: topic.user.id,
      visibility: topic.visibility,
      deleted: found.deleted,
      banned: topic.grade === BAN_GRADE,
      nodeId: topic.nodeId,
    };
    const gone = !topicVisibleTo(READERS.webhook, ANONYMOUS, facts);
    return gone ? { ...shown, deleted: true, body: '', body_html: '' } : shown;
  }

  private async reply(id: number): Promise<unknown> {
    const found = await this.replies.detailInAnyState(id);
    return found ? this.wire.replyDetail(found, null) : { id };
  }

  private async reviewItem(id: number): Promise<unknown> {
    const found = await this.review.get(id, 'all');
    return found ? this.wire.reviewItem(found, ADMINISTRATOR) : { id };
  }

  private async user(id: number): Promise<unknown> {
    const found = await this.users.byId(id);
    return found ? this.wire.userDetail(found, null) : { id };
  }
}
