import { NotFound } from '../../domain/shared/errors.js';
import { type Actor, requireUser } from '../actor.js';
import { type RawParam, PageParams, readAll } from '../inputs.js';
import type { ReplyPage } from '../read-models.js';
import { ListRepliesParams } from '../replies/list-replies.js';
import type { ConversationDetailView, ConversationReadModel, ConversationReading, ConversationView } from './ports.js';

/** The caller's conversations (contract §24), newest activity first, paged like every list. */
export class ListConversations {
  constructor(private readonly conversations: ConversationReadModel) {}

  execute(actor: Actor, input: { offset?: RawParam; limit?: RawParam }): Promise<ConversationView[]> {
    const user = requireUser(actor);
    return this.conversations.list(user.id, readAll(PageParams, input));
  }
}

/** A conversation of the caller's, opened (contract §22's mark); 404 to anyone else, administrators included. */
export class ShowConversation {
  constructor(private readonly conversations: ConversationReading) {}

  async execute(actor: Actor, id: number): Promise<ConversationDetailView> {
    const user = requireUser(actor);
    const conversation = await this.conversations.open(id, user.id);
    if (!conversation) throw new NotFound('conversation');
    return conversation;
  }
}

/** A page of a conversation's messages, as a topic's replies are paged, read by the caller up to its last. */
export class ListConversationReplies {
  constructor(private readonly conversations: ConversationReading) {}

  async execute(actor: Actor, input: { id: number; offset?: RawParam; limit?: RawParam }): Promise<ReplyPage> {
    const user = requireUser(actor);
    const page = await this.conversations.replies(input.id, readAll(ListRepliesParams, input), user.id);
    if (!page) throw new NotFound('conversation');
    return page;
  }
}

/** How many of the caller's conversations have messages they have yet to read (contract §24). */
export class CountUnreadMessages {
  constructor(private readonly conversations: ConversationReadModel) {}

  execute(actor: Actor): Promise<number> {
    return this.conversations.unreadCount(requireUser(actor).id);
  }
}
