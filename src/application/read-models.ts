import type { Viewer } from '../domain/users/role.js';
import type { Grade } from '../domain/topics/topic.js';
import type { Role } from '../domain/users/role.js';
import type { MailPreferences } from '../domain/users/user.js';
import type { SystemEvent } from '../domain/replies/reply.js';
import type { NotificationType } from '../domain/notifications/notification.js';
import type { CallerRef, Identified } from './actor.js';
import type { Visibility } from '../domain/shared/post.js';

/**
 * Views for the read side: filled straight from SQL, one query per request, no aggregate loaded.
 * They carry facts, not wire JSON: the HTTP presenters shape them and compute the caller's abilities.
 */

export interface UserView {
  id: number;
  login: string;
  name: string | null;
}

export interface TopicView {
  id: number;
  title: string;
  createdAt: Date;
  updatedAt: Date;
  repliedAt: Date | null;
  repliesCount: number;
  nodeId: number;
  nodeName: string;
  lastReplyUserId: number | null;
  lastReplyUserLogin: string | null;
  grade: Grade;
  likesCount: number;
  hits: number;
  lockNode: boolean;
  /** When it was pinned; null when it is not. */
  suggestedAt: Date | null;
  closedAt: Date | null;
  /** Held or hidden (contract §18): shown as it is only to its author and administrators (READERS.post). */
  visibility: Visibility;
  user: UserView;
  /** For the destroy ability; computed only when the viewer is the author (false otherwise). */
  hasRepliesFromOthers: boolean;
  /** For the moderation abilities: the viewer moderates the topic's node (contract §23). */
  moderated: boolean;
  /**
   * Where the signed-in reader of a list left off (contract §22): null when they never opened the topic; absent
   * when the list was read by nobody signed in (or by a read that does not give it).
   */
  readState?: ReadState | null;
}

/** A reader's read state of a topic (contract §22): the last reply they were shown, and how many they have yet to read. */
export interface ReadState {
  lastReadReplyId: number | null;
  unreadRepliesCount: number;
}

export interface TopicDetailView extends TopicView {
  body: string;
  bodyHtml: string;
}

export interface TopicViewerMeta {
  followed: boolean;
  liked: boolean;
  favorited: boolean;
}

/** A topic as its show reads it for the caller. */
export interface TopicShowing {
  topic: TopicDetailView;
  meta: TopicViewerMeta;
  /** Whether the caller has unread notifications about the topic (showing it reads them). */
  unreadNotifications: boolean;
  /** Whether a signed-in caller has opened the topic before (contract §22: showing it opens it); true signed out. */
  opened: boolean;
}

/** A topic as showing it left it: its hit counted, the caller's notifications about it read. */
export interface ShownTopic {
  topic: TopicDetailView;
  meta: TopicViewerMeta;
  /** Whether the show marked some of the caller's notifications read (their unread count changed). */
  markedRead: boolean;
}

export interface Page {
  offset: number;
  limit: number;
}

export const USER_TOPIC_ORDERS = ['recent', 'likes', 'replies'] as const;
export type UserTopicOrder = (typeof USER_TOPIC_ORDERS)[number];

export const TOPIC_LIST_TYPES = ['last_actived', 'recent', 'no_reply', 'popular', 'excellent', 'unread', 'new'] as const;
export type TopicListType = (typeof TOPIC_LIST_TYPES)[number];

/**
 * The lists of a signed-in reader's own (contract §22): the topics they opened that have replies they have yet to
 * read, and the recent ones they never opened. Nobody signed in has them (401), and no cache shares them.
 */
export const READER_LIST_TYPES: ReadonlySet<TopicListType> = new Set(['unread', 'new']);

export interface TopicListQuery {
  type: TopicListType;
  nodeId: number | null;
  offset: number;
  limit: number;
  /** For `new`: topics created since. */
  newSince?: Date;
}

/** How many topics a reader has to catch up with (contract §22): opened ones with unread replies, and new ones. */
export interface ReadCounts {
  unread: number;
  new: number;
}

export interface TopicReadModel {
  /**
   * The caller's read counts: topics of their lists they opened with replies they have yet to read, and topics of
   * their lists created since `newSince` that they never opened, not their own. Null when nobody is signed in.
   */
  readCounts(caller: CallerRef, newSince: Date): Promise<Identified<ReadCounts | null>>;
  /** A page of the list, the caller identified in the same statement; null when the query's node does not exist. */
  list(query: TopicListQuery, caller: CallerRef): Promise<Identified<TopicView[] | null>>;
  /** A user's visible topics. */
  byUser(userId: number, order: UserTopicOrder, page: Page, viewer: Viewer | null): Promise<TopicView[]>;
  /** The visible topics a user favorited, most recently favorited first. */
  favoritesOf(userId: number, page: Page, viewer: Viewer | null): Promise<TopicView[]>;
  detail(id: number, viewer: Viewer | null): Promise<TopicDetailView | null>;
  /**
   * The topics of `ids` the viewer may open, with their bodies (a feed's items, after a list gave their ids), in no
   * particular order; those they may not open are left out.
   */
  details(ids: readonly number[], viewer: Viewer | null): Promise<TopicDetailView[]>;
  /**
   * What showing a topic reads, in one statement: the caller (identified by the statement itself), the detail with
   * the caller's meta, and whether they have unread notifications about it. Null when they may not open it.
   */
  show(id: number, caller: CallerRef): Promise<Identified<TopicShowing | null>>;
  /** A topic whatever its state, deleted, held or hidden included (what a webhook reports about it). */
  detailInAnyState(id: number): Promise<{ topic: TopicDetailView; deleted: boolean } | null>;
  /**
   * Where a user left off in a topic they may open (contract §22), for the pages' link to the first unread reply and
   * their line where new replies begin: null when they never opened it (or may not open it).
   */
  markOf(topicId: number, userId: number): Promise<ReadMark | null>;
}
export const TopicReadModel = Symbol.for('TopicReadModel');

/** A reader's mark on a topic (contract §22), with the first reply after it they have yet to read. */
export interface ReadMark {
  /** The last reply they were shown; null: none yet. */
  lastReadReplyId: number | null;
  /** The first reply after the mark that counts as unread (as `ReadState` counts them), and its floor; null: none. */
  firstUnread: { id: number; floor: number } | null;
}

export interface NodeView {
  id: number;
  name: string;
  summary: string;
  sort: number;
  topicsCount: number;
  hidden: boolean;
  updatedAt: Date;
  /** The section it is listed under, if any. */
  section: SectionView | null;
  /** The caller moderates it (contract §23); read by the node list for a signed-in caller. */
  moderated?: boolean;
}

export interface SectionView {
  id: number;
  name: string;
}

export interface SectionListItem extends SectionView {
  sort: number;
  nodesCount: number;
}

export interface NodeReadModel {
  /** The nodes the caller may read (contract §23), ordered by sort descending, then id. */
  list(caller: CallerRef): Promise<Identified<NodeView[]>>;
  /** The node, if the caller may read it. */
  get(id: number, caller: CallerRef): Promise<Identified<NodeView | null>>;
  /** Sections, by sort descending, then id, each with how many nodes it holds. */
  sections(): Promise<SectionListItem[]>;
  /** Whether the user blocks the node: keeps it out of their topic lists (their own block list). */
  blocks(userId: number, nodeId: number): Promise<boolean>;
}
export const NodeReadModel = Symbol.for('NodeReadModel');

/** A group (contract §23): its name, title, whether it is hidden, and how many members it has. */
export interface GroupView {
  id: number;
  name: string;
  title: string;
  hidden: boolean;
  membersCount: number;
  createdAt: Date;
}

export interface GroupReadModel {
  /** Every group, hidden ones included, by name (administrators: forumctl). */
  list(): Promise<GroupView[]>;
  /** Group `name` (in any case), with its members by login (administrators: forumctl). */
  show(name: string): Promise<(GroupView & { members: UserView[] }) | null>;
  /** Group `name` as the API shows it to the caller: a hidden one only to an administrator (contract §23). */
  get(name: string, caller: CallerRef): Promise<Identified<GroupView | null>>;
}
export const GroupReadModel = Symbol.for('GroupReadModel');

export interface UserDetailView extends UserView {
  email: string;
  /** The user chose to show their address to everyone. */
  emailPublic: boolean;
  role: Role;
  createdAt: Date;
  topicsCount: number;
  repliesCount: number;
  followersCount: number;
  followingCount: number;
  favoritesCount: number;
  location: string | null;
  company: string | null;
  twitter: string | null;
  github: string | null;
  website: string | null;
  tagline: string | null;
  bio: string | null;
  /** The names of the user's groups that are not hidden, by name (contract §23). */
  groups: string[];
  /** The end of a silence or suspension (contract §18), as stored: past or null, none in force. Never on the wire. */
  silencedUntil: Date | null;
  suspendedUntil: Date | null;
}

export interface UserReadModel {
  byId(id: number): Promise<UserDetailView | null>;
  /** A user's mail preferences (contract §17). */
  preferences(id: number): Promise<MailPreferences | null>;
  byLogin(login: string): Promise<UserDetailView | null>;
  list(offset: number, limit: number): Promise<UserDetailView[]>;
  relation(viewerId: number, userId: number): Promise<UserRelationView>;
  /**
   * How many of the user's topics that count are in nodes `viewer` may not read (contract §23): their topics_count as
   * the viewer may see it is their count less these.
   */
  topicsUnseenBy(userId: number, viewer: Viewer | null): Promise<number>;
  /** `followers`: who follows the user; `following`: whom the user follows; oldest relation first (homeland). */
  follows(userId: number, direction: FollowDirection, page: Page): Promise<UserView[]>;
  /**
   * The most active users: most replies in the calendar months from `since` on, then most topics; users with
   * the blocked role and the built-in system user left out.
   */
  mostActive(since: Date, limit: number): Promise<UserView[]>;
  /** The users `userId` blocked, in the order they were blocked. */
  blockedBy(userId: number, page: Page): Promise<UserView[]>;
}
export const UserReadModel = Symbol.for('UserReadModel');

export interface ReplyView {
  id: number;
  topicId: number;
  body: string;
  bodyHtml: string;
  action: SystemEvent | null;
  /** Held or hidden (contract §18): anyone but its author and administrators sees it as a deleted reply (READERS.post). */
  visibility: Visibility;
  likesCount: number;
  likedUserIds: number[];
  deleted: boolean;
  createdAt: Date;
  updatedAt: Date;
  user: UserView;
  /** For the destroy ability: the viewer moderates the reply's node (contract §23); read with a topic's page, and one reply. */
  moderated?: boolean;
}

export interface ReplyDetailView extends ReplyView {
  topicTitle: string;
}

export interface ReplyPage {
  replies: ReplyView[];
  /** Among the returned replies, those the viewer liked (empty for anonymous callers). */
  likedReplyIds: number[];
}

export interface ReplyReadModel {
  /**
   * A visible topic's replies by id, deleted ones and system events included, the caller identified in the same
   * statement; null when the topic does not exist or is deleted.
   */
  listForTopic(
    topicId: number,
    page: { offset: number; limit: number },
    caller: CallerRef,
  ): Promise<Identified<ReplyPage | null>>;
  /**
   * A reply, not deleted, of a topic not deleted, both shown to the viewer (contract §18), or null; with whether they
   * moderate its node (contract §23).
   */
  detail(id: number, viewer: Viewer | null): Promise<ReplyDetailView | null>;
  /** Its floor in its topic: its place among all the topic's replies by id, deleted and system events counted. */
  floorOf(topicId: number, replyId: number): Promise<number>;
  /** A reply whatever its state or its topic's, deleted included (what a webhook reports about it). */
  detailInAnyState(id: number): Promise<ReplyDetailView | null>;
  /** A user's replies (not system events) on topics, neither deleted and both shown to the viewer, newest first. */
  byUser(userId: number, page: Page, viewer: Viewer | null): Promise<ReplyDetailView[]>;
}
export const ReplyReadModel = Symbol.for('ReplyReadModel');

export interface NotificationView {
  id: number;
  type: NotificationType;
  read: boolean;
  createdAt: Date;
  updatedAt: Date;
  mentionType: 'Topic' | 'Reply' | null;
  /** Null where there is none, or where the related record was deleted. */
  actor: UserView | null;
  topic: TopicView | null;
  reply: ReplyView | null;
  node: NodeView | null;
}

export interface NotificationReadModel {
  /** The user's notifications, newest (highest id) first, related records embedded: one round trip. */
  list(userId: number, page: { offset: number; limit: number }, viewer: Viewer): Promise<NotificationView[]>;
  /** The user's notifications after an id, oldest first (a stream's resume). */
  after(userId: number, afterId: number, limit: number, viewer: Viewer): Promise<NotificationView[]>;
  /** Of these ids, the user's notifications, oldest first. */
  /** Notifications by id whoever they belong to, each as its owner sees it: one read for many users' streams. */
  byIdsOfAnyUser(ids: readonly number[]): Promise<{ userId: number; notification: NotificationView }[]>;
  unreadCount(userId: number): Promise<number>;
  /** The caller's unread count, the caller identified in the same statement (null count: anonymous). */
  unreadCountOf(caller: CallerRef): Promise<Identified<number | null>>;
  /** Every listed user's unread count, in one read. */
  unreadCounts(userIds: readonly number[]): Promise<Map<number, number>>;
}
export const NotificationReadModel = Symbol.for('NotificationReadModel');

export type FollowDirection = 'followers' | 'following';

export interface UserRelationView {
  /** The viewer follows the user. */
  followed: boolean;
  /** The viewer blocked the user. */
  blocked: boolean;
}

/** A topic in the sitemap: its id and its last activity (the file's `lastmod`). */
export interface SitemapTopic {
  id: number;
  lastActiveAt: Date;
}

/**
 * What the sitemap lists (contract §21a): the topics an anonymous reader finds in the lists (READERS.topicList), by
 * the month they were created, and the members worth a profile's URL. Each read is a few index probes or one index
 * range: never a scan of every topic.
 */
export interface SitemapReadModel {
  /** The months (UTC, as `YYYY-MM`) in which at least one listed topic was created, oldest first. */
  topicMonths(): Promise<string[]>;
  /** The listed topics created in [from, to), oldest first, at most `limit`. */
  topicsCreated(from: Date, to: Date, limit: number): Promise<SitemapTopic[]>;
  /**
   * The members' files are pieces of the ids, `size` each: those (from 1) that hold at least one member listed by
   * `userLogins`, in order.
   */
  userPieces(size: number): Promise<number[]>;
  /** The logins of the active members (not blocked, not the built-in `system`) whose ids are in [fromId, toId], by id. */
  userLogins(fromId: number, toId: number): Promise<string[]>;
}
export const SitemapReadModel = Symbol.for('SitemapReadModel');
