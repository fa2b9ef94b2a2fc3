import { type NodeAccess, mayRead } from '../nodes/access.js';
import type { Reply } from '../replies/reply.js';
import type { Visibility } from '../shared/post.js';
import { BAN_GRADE, type Topic } from '../topics/topic.js';
import type { Viewer } from '../users/role.js';

/**
 * Who may see a post: the one rule of the forum, for every reader (the API, forumctl, pages, search, notifications,
 * mail, digests, webhooks, streams, caches, counters).
 *
 * The rule is a handful of named conditions (`TopicRule`, `ReplyRule`), each with its meaning written once below
 * (`TOPIC_RULES`, `REPLY_RULES`). A reader of the contract is a named profile (`READERS`): the conditions that apply
 * to what it shows. Code that holds a post in memory asks `visibleTo`; statements get the same profile compiled to
 * SQL by the persistence adapter (adapters/persistence/sql/visibility.ts), whose every condition is proved to mean
 * what its TypeScript twin means by one table-driven test (test/integration/visibility-parity.test.ts).
 *
 * A new kind of restriction (a private node, a conversation) is a new condition here, its SQL there, and its place
 * in the profiles that need it: no reader adds a check of its own.
 */

/** What the rule reads of a topic. `node` is needed only by the conditions that read the node. */
export interface TopicFacts {
  userId: number;
  visibility: Visibility;
  deleted: boolean;
  /** Banned by a moderator (contract §6: grade `ban`; it also lives in NoPoint, which is not what bans it). */
  banned: boolean;
  /** Null for a conversation (contract §24), which is in no node. */
  nodeId: number | null;
  node?: NodeFacts;
  /** Who takes part, for a conversation; needed only by the condition that reads it (`participant`). */
  conversation?: ConversationFacts;
}

/**
 * Who takes part in a conversation (contract §24): users named in it, groups whose members take part, and the users
 * who left it (out, even while a group of theirs takes part).
 */
export interface ConversationFacts {
  userIds: ReadonlySet<number>;
  groupIds: ReadonlySet<number>;
  leftIds: ReadonlySet<number>;
}

/**
 * Whether the user `id`, in the groups `groupIds`, takes part in a conversation: named in it and not gone, or in a
 * group that takes part and not gone. The `participant` condition, and who a new message reaches (its audience).
 */
export function takesPart(id: number, groupIds: ReadonlySet<number> | undefined, conversation: ConversationFacts): boolean {
  const { userIds, groupIds: named, leftIds } = conversation;
  if (userIds.has(id)) return true;
  if (leftIds.has(id) || named.size === 0) return false;
  if (!groupIds) throw new Error('this conversation has groups: give the reader’s');
  return [...named].some((group) => groupIds.has(group));
}

/** What the rule reads of a node: whether it is hidden, and who may read there (contract §23). */
export interface NodeFacts {
  hidden: boolean;
  access: NodeAccess;
}

/** What the rule reads of a reply. */
export interface ReplyFacts {
  userId: number;
  visibility: Visibility;
  deleted: boolean;
  /** A system event (ban, close, …) among the replies, not written by a person. */
  systemEvent: boolean;
}

/** What the rule reads of a topic aggregate (its node aside). */
export const topicFacts = (topic: Topic): TopicFacts => ({
  userId: topic.userId,
  visibility: topic.visibility,
  deleted: topic.deletedAt !== null,
  banned: topic.grade === BAN_GRADE,
  nodeId: topic.nodeId,
});

/** What the rule reads of a reply aggregate. */
export const replyFacts = (reply: Reply): ReplyFacts => ({
  userId: reply.userId,
  visibility: reply.visibility,
  deleted: reply.deletedAt !== null,
  systemEvent: reply.isSystemEvent(),
});

/**
 * Who reads: the viewer (null when signed out), what they blocked, and the groups they belong to. `blocks` and
 * `groupIds` are needed only by the conditions that read them (a node that names groups reads `groupIds`); a reader
 * without them is someone to whom they do not apply (a signed-out reader has none).
 */
export interface Reader {
  viewer: Viewer | null;
  blocks?: { nodeIds: ReadonlySet<number>; userIds: ReadonlySet<number> };
  groupIds?: ReadonlySet<number>;
}

const NO_GROUPS: ReadonlySet<number> = new Set();

/** Someone signed out, and what is sent to everyone alike (mail, webhooks, the anonymous caches). */
export const ANONYMOUS: Reader = { viewer: null, blocks: { nodeIds: new Set(), userIds: new Set() }, groupIds: NO_GROUPS };

/** A reader known by who they are, and by their groups where a node may ask (loaded with them: `groupIds`). */
export const readerOf = (viewer: Viewer | null, groupIds?: readonly number[]): Reader =>
  viewer === null ? ANONYMOUS : { viewer, ...(groupIds ? { groupIds: new Set(groupIds) } : {}) };

const isAdmin = (reader: Reader) => reader.viewer?.role === 'admin';
const isAuthor = (reader: Reader, post: { userId: number }) => reader.viewer !== null && reader.viewer.id === post.userId;
const blocks = (reader: Reader) => {
  if (reader.viewer === null) return ANONYMOUS.blocks!;
  if (!reader.blocks) throw new Error('this reader profile reads the reader’s blocks: give them');
  return reader.blocks;
};
const nodeOf = (topic: TopicFacts) => {
  if (!topic.node) throw new Error('this reader profile reads the topic’s node: give it');
  return topic.node;
};
/** A condition on a topic's node, which a topic in no node (a conversation) never meets. */
const inNodeWhere = (topic: TopicFacts, holds: (node: NodeFacts) => boolean) => topic.nodeId !== null && holds(nodeOf(topic));
const groupsOf = (reader: Reader, access: NodeAccess): ReadonlySet<number> => {
  const asked = access.read.audience === 'groups' || access.moderatorGroupIds.length > 0;
  if (reader.viewer === null || !asked) return NO_GROUPS;
  if (!reader.groupIds) throw new Error('this node names groups: give the reader’s');
  return reader.groupIds;
};

/**
 * Whether `reader` may read in `node` (contract §23): one they may not does not exist for them, nor anything in it.
 * The node list asks it of nodes; `nodeReadable` asks it of a topic's.
 */
export const nodeReadableBy = (reader: Reader, node: { access: NodeAccess }): boolean =>
  mayRead(node.access, { viewer: reader.viewer, groupIds: groupsOf(reader, node.access) });

/**
 * Whether a post was published: not held for approval. One that was not sets off nothing yet (domain/events.ts); a
 * hidden post was published, and only review takes it away.
 */
export const isPublished = (post: { visibility: Visibility }): boolean => post.visibility !== 'held';

/** Conditions on a post of either kind. */
const POST_RULES = {
  /** Not deleted. */
  present: (_reader: Reader, post: TopicFacts | ReplyFacts) => !post.deleted,
  /** Shown as it is: public, or the reader's own, or the reader is an administrator (held and hidden posts, §18). */
  shownToReader: (reader: Reader, post: TopicFacts | ReplyFacts) =>
    post.visibility === 'public' || isAuthor(reader, post) || isAdmin(reader),
  /** Public: what is shown to everyone alike. */
  public: (_reader: Reader, post: TopicFacts | ReplyFacts) => post.visibility === 'public',
  /** Published: not held for approval (`isPublished`). */
  published: (_reader: Reader, post: TopicFacts | ReplyFacts) => isPublished(post),
  /** Its author is not someone the reader blocked. */
  authorNotBlocked: (reader: Reader, post: TopicFacts | ReplyFacts) => !blocks(reader).userIds.has(post.userId),
  /** Written by someone else than the reader (what one writes, one has read). */
  byOthers: (reader: Reader, post: TopicFacts | ReplyFacts) => !isAuthor(reader, post),
} as const;

/** Each condition a topic can be held to, and what it means. */
export const TOPIC_RULES = {
  ...POST_RULES,
  /** Not banned (homeland's `without_ban`). */
  notBanned: (_reader: Reader, topic: TopicFacts) => !topic.banned,
  /**
   * It is in a node: a topic of the forum. A conversation (contract §24) is in none, and is found only by its
   * participants, through the conversation readers; every reader of the forum holds its topics to this.
   */
  inNode: (_reader: Reader, topic: TopicFacts) => topic.nodeId !== null,
  /** Its node is listed for the reader: a hidden node only to someone signed in. */
  nodeListed: (reader: Reader, topic: TopicFacts) => inNodeWhere(topic, (node) => reader.viewer !== null || !node.hidden),
  /** Its node is not hidden, whoever reads. */
  nodeNotHidden: (_reader: Reader, topic: TopicFacts) => inNodeWhere(topic, (node) => !node.hidden),
  /** Its node is not one the reader blocked. */
  nodeNotBlocked: (reader: Reader, topic: TopicFacts) => topic.nodeId === null || !blocks(reader).nodeIds.has(topic.nodeId),
  /** Its node is one the reader may read (`nodeReadableBy`: everyone, members, groups or staff, contract §23). */
  nodeReadable: (reader: Reader, topic: TopicFacts) => inNodeWhere(topic, (node) => nodeReadableBy(reader, node)),
  /**
   * It is a conversation the reader takes part in (contract §24): named in it and not gone, or in a group that takes
   * part and not gone. Nobody else finds it, administrators included.
   */
  participant: (reader: Reader, topic: TopicFacts) => {
    if (topic.nodeId !== null || reader.viewer === null) return false;
    if (!topic.conversation) throw new Error('this reader profile reads who takes part in a conversation: give it');
    return takesPart(reader.viewer.id, reader.groupIds, topic.conversation);
  },
} as const;
export type TopicRule = keyof typeof TOPIC_RULES;

/** Each condition a reply can be held to, and what it means. */
export const REPLY_RULES = {
  ...POST_RULES,
  /** Written by a person, not a system event. */
  byHand: (_reader: Reader, reply: ReplyFacts) => !reply.systemEvent,
} as const;
export type ReplyRule = keyof typeof REPLY_RULES;

/** A reader of the contract: the conditions its topics are held to, and those its replies are held to besides. */
export interface ReaderProfile {
  readonly name: string;
  readonly topic: readonly TopicRule[];
  readonly reply: readonly ReplyRule[];
}

const profile = (name: string, topic: readonly TopicRule[], reply: readonly ReplyRule[]): ReaderProfile => ({
  name,
  topic,
  reply,
});

/** The readers of the contract, each with what it may show. */
export const READERS = {
  /**
   * A topic or reply as the reader opens it (show, a reply, a reply thread's floors, a user's topics, replies and
   * favorites, what a notification points at): not deleted, and shown to them. What is sent to everyone alike
   * (notification mail, webhooks) is this profile read by `ANONYMOUS`.
   */
  post: profile('post', ['inNode', 'present', 'shownToReader', 'nodeReadable'], ['present', 'shownToReader']),
  /**
   * The topic lists across nodes (`GET /topics` without `node_id`, the front page): a post as above, not banned,
   * in a node listed for the reader, neither in a node nor by a user the reader blocked (contract §6, §4).
   */
  topicList: profile(
    'topic list',
    ['inNode', 'present', 'shownToReader', 'notBanned', 'nodeListed', 'nodeReadable', 'nodeNotBlocked', 'authorNotBlocked'],
    [],
  ),
  /** One node's list (`node_id`): whatever of it the reader may open, banned topics included (moderators find them there). */
  nodeTopics: profile('node topics', ['inNode', 'present', 'shownToReader', 'nodeReadable'], []),
  /** Search (contract §11): the list's rule, no hidden node for anyone, and no reply by a user the reader blocked. */
  search: profile(
    'search',
    ['inNode', 'present', 'shownToReader', 'notBanned', 'nodeNotHidden', 'nodeReadable', 'nodeNotBlocked', 'authorNotBlocked'],
    ['present', 'shownToReader', 'authorNotBlocked'],
  ),
  /**
   * A digest mailed to a member (contract §17): public topics only, whoever the member is, never from a hidden
   * node, nor from a node or a user they blocked.
   */
  digest: profile(
    'digest',
    ['inNode', 'present', 'public', 'notBanned', 'nodeNotHidden', 'nodeReadable', 'nodeNotBlocked', 'authorNotBlocked'],
    [],
  ),
  /**
   * A notification mailed to a member (contract §17): what everyone alike may be shown of it (public, not deleted),
   * in a node its recipient may read (§23).
   */
  mail: profile('mail', ['inNode', 'present', 'public', 'nodeReadable'], ['present', 'public']),
  /**
   * What a webhook is sent of a post (contract §13): what everyone alike may be shown of it. Which webhooks hear of a
   * private node's posts at all is the webhooks' own setting (§23: `--private-nodes`).
   */
  webhook: profile('webhook', ['inNode', 'present', 'public'], ['present', 'public']),
  /**
   * What is counted (replies, topics, activity) and indexed for search: not deleted, published, written by hand. A
   * hidden post still counts: it was published, and only review takes it away. No reader: counts are everyone's.
   */
  counted: profile('counted', ['inNode', 'present', 'published'], ['present', 'published', 'byHand']),
  /**
   * An author's record for the posting rules (§18: how many of their posts were published): published at some time,
   * deleted since or not.
   */
  authored: profile('authored', ['inNode', 'published'], ['published', 'byHand']),
  /**
   * Every post an author made, for the limits on new accounts (§18) and their export (§16c): held, hidden or deleted
   * since, each was made.
   */
  written: profile('written', ['inNode'], ['byHand']),
  /**
   * A post of the forum in any state (deleted, held, hidden, banned, a system event): what is read before deciding
   * what of it to show (an administrator's `forumctl topics show`, what a command prints of the post it changed, a
   * webhook's payload, then held to `webhook`), and the topic of a reply counted or indexed by its own state. Never
   * a conversation's (`inNode`): outside its participants it does not exist, for forumctl too (contract §24).
   */
  anyState: profile('any state', ['inNode'], []),
  /** What an author still has, whatever its state (deleting the account deletes it, §16c): not deleted, by hand. */
  standing: profile('standing', ['inNode', 'present'], ['present', 'byHand']),
  /**
   * What is still kept of what anyone wrote, in the forum or in a conversation (§24): the files it names stay (§19,
   * the orphans' purge). It decides nobody's view: a conversation's messages are kept as the forum's posts are.
   */
  kept: profile('kept', ['present'], ['present', 'byHand']),
  /** The topics new to a reader (contract §22): the list's rule, and not theirs. */
  newTopics: profile(
    'new topics',
    [
      'inNode',
      'present',
      'shownToReader',
      'notBanned',
      'nodeListed',
      'nodeReadable',
      'nodeNotBlocked',
      'authorNotBlocked',
      'byOthers',
    ],
    [],
  ),
  /**
   * What a reader has yet to read (contract §22): the replies of a topic they may open that they may open too,
   * published (a reply held for review is nobody's news until it is approved), written by hand, by someone else than
   * them and than anyone they blocked. (Which topics: the list's rule.)
   */
  unread: profile(
    'unread',
    ['inNode', 'present', 'shownToReader', 'nodeReadable'],
    ['present', 'shownToReader', 'published', 'byHand', 'authorNotBlocked', 'byOthers'],
  ),
  /**
   * A conversation as its participants read it (contract §24: the list, the conversation and its messages): one
   * they take part in, and of its messages what they may be shown. To everyone else, administrators included, it does
   * not exist; the forum's readers never find one (`inNode`).
   */
  conversation: profile('conversation', ['present', 'shownToReader', 'participant'], ['present', 'shownToReader']),
  /** What a participant has yet to read of a conversation: `unread`'s messages, in a conversation they take part in. */
  conversationUnread: profile(
    'conversation unread',
    ['present', 'shownToReader', 'participant'],
    ['present', 'shownToReader', 'published', 'byHand', 'authorNotBlocked', 'byOthers'],
  ),
} as const satisfies Record<string, ReaderProfile>;
export type ReaderName = keyof typeof READERS;

/** Whether `reader` finds `topic` under `profile`. */
export function topicVisibleTo(profile: ReaderProfile, reader: Reader, topic: TopicFacts): boolean {
  return profile.topic.every((rule) => TOPIC_RULES[rule](reader, topic));
}

/** Whether `reader` finds `reply` under `profile`, its topic aside (the caller found the topic under it already). */
export function replyVisibleTo(profile: ReaderProfile, reader: Reader, reply: ReplyFacts): boolean {
  return profile.reply.every((rule) => REPLY_RULES[rule](reader, reply));
}

/** Whether `reader` finds the post under `profile`: the topic, and the reply when it is one. */
export function visibleTo(profile: ReaderProfile, reader: Reader, post: { topic: TopicFacts; reply?: ReplyFacts }): boolean {
  return topicVisibleTo(profile, reader, post.topic) && (post.reply === undefined || replyVisibleTo(profile, reader, post.reply));
}

/**
 * Whether what `viewer` is shown is what everyone who reads alike is shown, so that one answer may serve them all (the
 * anonymous caches): only someone signed out, for whom no rule reads who they are.
 */
export const readsAsEveryone = (viewer: Viewer | null): boolean => viewer === null;
