import { z } from 'zod';
import {
  type Named,
  audienceOf,
  openingMessage,
  requireAdditions,
  requireParticipants,
} from '../../domain/conversations/conversation.js';
import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { DENIED, canWrite } from '../../domain/shared/policy.js';
import { MAX_REPLY_BODY } from '../../domain/replies/reply.js';
import { requireText } from '../../domain/shared/text.js';
import { READERS, readerOf, topicVisibleTo } from '../../domain/visibility/visibility.js';
import { type ActingUser, type Actor, requireUser } from '../actor.js';
import type { Viewer } from '../../domain/users/role.js';
import type { DomainEvents } from '../events.js';
import { type RawParam, Text, read } from '../inputs.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../ports.js';
import type { PostingRules } from '../review/posting-rules.js';
import type { ConversationPlace, ConversationStore, NamedRecipients } from './ports.js';

/**
 * Who a message goes to: logins and group names, as a JSON array or one string of names separated by commas or
 * spaces (a form's field); at most a conversation's worth.
 */
export const Recipients = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(/[\s,]+/) : value),
  z
    .array(Text, { error: 'must be a list of logins and group names' })
    .max(50, { error: 'may name at most 50' })
    // A blank name names nobody: what is left is who is named (none at all is the rules' to refuse).
    .transform((names) => names.map((name) => name.trim()).filter((name) => name !== '')),
);

export const StartConversationParams = z.object({ to: Recipients, title: Text, body: Text });
export const ReplyToConversationParams = z.object({ body: Text });
export const AddParticipantsParams = z.object({ to: Recipients });

/** Who was found by the names given; refused naming the first that names neither a user nor a group. */
function namedBy(found: NamedRecipients) {
  // A rule of the record, not of the parameter's form: the name is well formed, and names nobody.
  if (found.unknown.length > 0) throw new RuleViolated(`Validation failed: to names no user or group: ${found.unknown[0]}`);
  const named: Named = { userIds: found.users.map((user) => user.id), groupIds: found.groups.map((group) => group.id) };
  return { named, recipients: found.users };
}

/** A user who may write at all: signed in, not blocked (suspended accounts are refused by the posting rules). */
function requireWriter(actor: Actor): ActingUser {
  const user = requireUser(actor);
  if (!canWrite(user)) throw new Forbidden(DENIED.sendMessage);
  return user;
}

/**
 * Conversation `id` as `user` is let in: the visibility policy's conversation reader decides (contract §24); to
 * anyone it does not let in, the conversation does not exist (404), administrators included.
 */
export async function enterConversation(store: ConversationStore, id: number, user: Viewer): Promise<ConversationPlace> {
  const place = await store.place(id, user.id);
  if (!place || !admits(place, user)) throw new NotFound('conversation');
  return place;
}

/** Whether the visibility policy's conversation reader lets `user` into the conversation `place` (contract §24). */
export const admits = (place: ConversationPlace, user: Viewer): boolean =>
  topicVisibleTo(READERS.conversation, readerOf(user, place.readerGroupIds), place.facts);

/** Starts a conversation (contract §24): its title, its opening message, and who takes part. */
export class StartConversation {
  constructor(
    private readonly store: ConversationStore,
    private readonly rules: PostingRules,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { to?: RawParam; title?: RawParam; body?: RawParam }): Promise<number> {
    const user = requireWriter(actor);
    const names = read(StartConversationParams.shape.to, input.to, 'to');
    const content = openingMessage({
      title: read(StartConversationParams.shape.title, input.title, 'title'),
      body: read(StartConversationParams.shape.body, input.body, 'body'),
    });
    return this.uow.run(async () => {
      const opening = await this.store.opening(user.id, names);
      this.rules.requireMayPost(opening.author);
      const { named, recipients } = namedBy(opening);
      const participants = requireParticipants(user.id, named, recipients);
      const rendered = this.markdown.render(content.body);
      await this.rules.judge(opening.author, { kind: 'message', body: content.body, topicId: null, links: rendered.links });
      const now = this.clock.now();
      const id = opening.conversationId;
      await this.store.start({ id, userId: user.id, ...content, bodyHtml: rendered.html, named: participants, at: now });
      const started = {
        userIds: new Set(participants.userIds),
        groupIds: new Set(participants.groupIds),
        leftIds: new Set<number>(),
      };
      const recipientIds = audienceOf(started, opening.members, user.id);
      await this.events.record({ type: 'message.created', topicId: id, replyId: null, userId: user.id, recipientIds, at: now });
      return id;
    });
  }
}

/** A participant's reply in a conversation (contract §24), under the posting rules every post is under. */
export class ReplyToConversation {
  constructor(
    private readonly store: ConversationStore,
    private readonly rules: PostingRules,
    private readonly markdown: MarkdownRenderer,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: number; body?: RawParam }): Promise<number> {
    const user = requireUser(actor);
    const text = read(ReplyToConversationParams.shape.body, input.body, 'body');
    return this.uow.run(async () => {
      const target = await this.store.messageTarget(input.id, user.id);
      if (!target || !admits(target.place, user)) throw new NotFound('conversation');
      const body = requireText(text, 'Body', MAX_REPLY_BODY);
      if (!canWrite(user)) throw new Forbidden(DENIED.sendMessage);
      this.rules.requireMayPost(target.author);
      const rendered = this.markdown.render(body);
      await this.rules.judge(target.author, { kind: 'message', body, topicId: input.id, links: rendered.links });
      const now = this.clock.now();
      const replyId = target.messageId;
      await this.store.addMessage({ id: replyId, topicId: input.id, userId: user.id, body, bodyHtml: rendered.html, at: now });
      const recipientIds = audienceOf(target.place.facts.conversation!, target.members, user.id);
      await this.events.record({ type: 'message.created', topicId: input.id, replyId, userId: user.id, recipientIds, at: now });
      return replyId;
    });
  }
}

/** Any participant adds people to a conversation (contract §24); someone who blocked them cannot be added by them. */
export class AddParticipants {
  constructor(
    private readonly store: ConversationStore,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: number; to?: RawParam }): Promise<void> {
    const user = requireUser(actor);
    const names = read(AddParticipantsParams.shape.to, input.to, 'to');
    await this.uow.run(async () => {
      const place = await enterConversation(this.store, input.id, user);
      if (!canWrite(user)) throw new Forbidden(DENIED.sendMessage);
      const { named, recipients } = namedBy(await this.store.recipients(user.id, names));
      const added = requireAdditions(place.named, named, recipients);
      if (added.userIds.length + added.groupIds.length === 0) return;
      await this.store.add(input.id, added, user.id, this.clock.now());
      await this.events.record({
        type: 'conversation.joined',
        topicId: input.id,
        userIds: [...added.userIds],
        groupIds: [...added.groupIds],
        actorId: user.id,
      });
    });
  }
}

/** A participant leaves a conversation (contract §24): it no longer exists for them, unless someone adds them back. */
export class LeaveConversation {
  constructor(
    private readonly store: ConversationStore,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: number }): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      await enterConversation(this.store, input.id, user);
      await this.store.leave(input.id, user.id, this.clock.now());
      await this.events.record({ type: 'conversation.left', topicId: input.id, userId: user.id });
    });
  }
}
