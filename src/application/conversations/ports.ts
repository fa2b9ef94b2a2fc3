import type { GroupMember, Named, Recipient } from '../../domain/conversations/conversation.js';
import type { Author } from '../../domain/review/posting.js';
import type { TopicFacts } from '../../domain/visibility/visibility.js';
import type { Page, ReplyPage, UserView } from '../read-models.js';

/** Someone named as a recipient: a user (with whether they blocked the sender) or a group. */
export interface NamedRecipients {
  users: (Recipient & { login: string })[];
  groups: { id: number; name: string }[];
  /** Names that are neither a user's login nor a group's name. */
  unknown: string[];
}

/** A conversation as the visibility policy reads it, and the reader's groups (its `participant` condition asks them). */
export interface ConversationPlace {
  facts: TopicFacts;
  readerGroupIds: number[];
  title: string;
  named: Named;
}

/**
 * What starting a conversation reads, at once: who is named, the starter as the posting rules know them, the members
 * of the groups named (whom the opening message reaches), and the id the conversation will take.
 */
export interface ConversationOpening extends NamedRecipients {
  author: Author;
  members: GroupMember[];
  conversationId: number;
}

/**
 * A conversation as a new message in it needs it, read at once: as its writer is let in, the writer as the posting
 * rules know them, the members of its groups (whom the message reaches), and the id the message will take.
 */
export interface MessageTarget {
  place: ConversationPlace;
  author: Author;
  members: GroupMember[];
  messageId: number;
}

/**
 * Where conversations are kept (contract §24): a topic in no node, its messages replies, and who takes part. A new
 * conversation and a new message are written with the rest of their unit of work, in its one statement (their ids
 * are drawn by the read before).
 */
export interface ConversationStore {
  /** The users and groups `names` name (logins and group names, in any case), as recipients of `senderId`'s. */
  recipients(senderId: number, names: readonly string[]): Promise<NamedRecipients>;
  /** What starting a conversation of `senderId`'s naming `names` needs (`recipients`, and more). */
  opening(senderId: number, names: readonly string[]): Promise<ConversationOpening>;
  /** A new conversation (its id drawn by `opening`), its opening message and who is named in it. */
  start(conversation: {
    id: number;
    userId: number;
    title: string;
    body: string;
    bodyHtml: string;
    named: Named;
    at: Date;
  }): Promise<void>;
  /** Conversation `id` as `readerId` would be let in, or null when there is no conversation of that id. */
  place(id: number, readerId: number): Promise<ConversationPlace | null>;
  /** Conversation `id` as a message of `writerId`'s needs it, or null when there is no conversation of that id. */
  messageTarget(id: number, writerId: number): Promise<MessageTarget | null>;
  /** A message (its id drawn by `messageTarget`) in conversation `topicId`, read by its author. */
  addMessage(message: { id: number; topicId: number; userId: number; body: string; bodyHtml: string; at: Date }): Promise<void>;
  /** Names `added` in conversation `id` (users who had left come back), by `addedById`. */
  add(id: number, added: Named, addedById: number, at: Date): Promise<void>;
  /** `userId` leaves conversation `id`: named no more, and out while a group of theirs takes part. */
  leave(id: number, userId: number, at: Date): Promise<void>;
}
export const ConversationStore = Symbol.for('ConversationStore');

/** A conversation in its participant's list (contract §24). */
export interface ConversationView {
  id: number;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  repliedAt: Date | null;
  repliesCount: number;
  lastReplyId: number | null;
  lastReplyUserId: number | null;
  lastReplyUserLogin: string | null;
  /** Who started it. */
  user: UserView;
  /** The users named in it (those who left aside), and the groups whose members take part. */
  participants: UserView[];
  groups: { name: string; title: string }[];
  /** Messages the reader has yet to read: the opening one too when they never opened it (READERS.conversationUnread). */
  unreadRepliesCount: number;
}

export interface ConversationDetailView extends ConversationView {
  body: string;
  bodyHtml: string;
}

/** Conversations as their participants list and count them, every statement held to the policy's conversation readers. */
export interface ConversationReadModel {
  /** The reader's conversations, newest activity first. */
  list(readerId: number, page: Page): Promise<ConversationView[]>;
  /** How many of the reader's conversations have messages they have yet to read. */
  unreadCount(readerId: number): Promise<number>;
  /** The same, for many readers at once (the live streams of a process). */
  unreadCounts(readerIds: readonly number[]): Promise<Map<number, number>>;
}
export const ConversationReadModel = Symbol.for('ConversationReadModel');

/**
 * A conversation read by a participant, which moves their read mark as reading a topic does (contract §22): a write
 * port, each read one statement with its mark. Null when it is not theirs to read.
 */
export interface ConversationReading {
  /** Conversation `id`, opened by the reader. */
  open(id: number, readerId: number): Promise<ConversationDetailView | null>;
  /** A page of its messages after the opening one, read by the reader up to the last. */
  replies(id: number, page: Page, readerId: number): Promise<ReplyPage | null>;
}
export const ConversationReading = Symbol.for('ConversationReading');
