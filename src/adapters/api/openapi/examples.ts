import type { ConversationDetailView } from '../../../application/conversations/ports.js';
import type { UploadView } from '../../../application/uploads/ports.js';
import type {
  GroupView,
  NodeView,
  ReplyDetailView,
  TopicDetailView,
  UserDetailView,
  UserView,
} from '../../../application/read-models.js';
import { Wire } from '../../presentation/wire.js';

/**
 * Examples for the document, made by the presenters themselves from sample views: they have the exact shapes
 * that responses have (a test checks them against the schemas too).
 */

const wire = new Wire('http://127.0.0.1:3000');
const at = new Date('2026-11-21T08:15:30.123Z');
const later = new Date('2026-11-21T09:02:11.456Z');

const alice: UserView = { id: 2, login: 'alice', name: 'Alice' };
const bob: UserView = { id: 3, login: 'bob', name: null };
const viewer = { id: 2, role: 'member' as const };

const aliceDetail: UserDetailView = {
  ...alice,
  email: 'alice@example.com',
  emailPublic: false,
  role: 'member',
  createdAt: at,
  topicsCount: 12,
  repliesCount: 40,
  followersCount: 3,
  followingCount: 5,
  favoritesCount: 2,
  location: 'Shanghai',
  company: null,
  twitter: null,
  github: 'alice',
  website: null,
  tagline: 'Asks good questions',
  bio: null,
  groups: ['rubyists'],
  silencedUntil: null,
  suspendedUntil: null,
};

const node: NodeView = {
  id: 2,
  name: 'General',
  summary: 'Anything goes',
  sort: 0,
  topicsCount: 12,
  hidden: false,
  updatedAt: at,
  section: { id: 1, name: 'Nodes' },
};

const group: GroupView = {
  id: 4,
  name: 'rubyists',
  title: 'Ruby people',
  hidden: false,
  membersCount: 7,
  createdAt: at,
};

const topic: TopicDetailView = {
  id: 42,
  title: 'How do I paginate topics?',
  createdAt: at,
  updatedAt: later,
  repliedAt: later,
  repliesCount: 1,
  nodeId: 2,
  nodeName: 'General',
  lastReplyUserId: 3,
  lastReplyUserLogin: 'bob',
  grade: 'normal',
  likesCount: 2,
  hits: 17,
  lockNode: false,
  suggestedAt: null,
  closedAt: null,
  visibility: 'public',
  user: alice,
  hasRepliesFromOthers: true,
  moderated: false,
  body: 'Is there an `offset`?\nThanks @bob',
  bodyHtml:
    '<p>Is there an <code>offset</code>?<br />\nThanks <a href="/bob" class="user-mention" rel="nofollow noopener">@bob</a></p>',
};

const reply: ReplyDetailView = {
  id: 314,
  topicId: 42,
  body: 'Yes: `offset` and `limit`.',
  bodyHtml: '<p>Yes: <code>offset</code> and <code>limit</code>.</p>',
  action: null,
  visibility: 'public',
  likesCount: 1,
  likedUserIds: [2],
  deleted: false,
  createdAt: later,
  updatedAt: later,
  user: bob,
  topicTitle: topic.title,
};

const conversation: ConversationDetailView = {
  id: 57,
  title: 'About the meetup',
  createdAt: at,
  updatedAt: later,
  repliedAt: later,
  repliesCount: 1,
  lastReplyId: 315,
  lastReplyUserId: 3,
  lastReplyUserLogin: 'bob',
  user: alice,
  participants: [alice, bob],
  groups: [],
  unreadRepliesCount: 1,
  body: 'Shall we meet at six?',
  bodyHtml: '<p>Shall we meet at six?</p>',
};

export const examples = {
  conversation: wire.conversation(conversation, viewer),
  conversationDetail: wire.conversationDetail(conversation, viewer),
  user: wire.user(alice, viewer),
  userDetail: wire.userDetail(aliceDetail, viewer),
  node: wire.node(node),
  group: wire.group(group),
  topic: wire.topic(topic, viewer),
  topicDetail: wire.topicDetail(topic, viewer),
  topicMeta: { followed: true, liked: false, favorited: false },
  reply: wire.reply(reply, viewer),
  replyDetail: wire.replyDetail(reply, viewer),
  notification: wire.notification(
    {
      id: 7,
      type: 'TopicReply',
      read: false,
      createdAt: later,
      updatedAt: later,
      mentionType: null,
      actor: bob,
      topic,
      reply,
      node: null,
    },
    viewer,
  ),
  token: {
    access_token: '3f1c0a6b9d2e4f7081a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081',
    token_type: 'Bearer' as const,
    expires_in: 86_400,
    refresh_token: '9a8b7c6d5e4f30211f2e3d4c5b6a79880a1b2c3d4e5f60718293a4b5c6d7e8f9',
    scope: 'all' as const,
    created_at: 1_795_300_000,
  },
  introspection: {
    active: true as const,
    scope: 'read' as const,
    client_id: 'b1946ac92492d2347c6235b4d2611184',
    username: 'alice',
    token_type: 'Bearer' as const,
    exp: 1_795_386_400,
    iat: 1_795_300_000,
  },
  tokenInfo: {
    resource_owner_id: 2,
    scope: ['all' as const],
    expires_in: 86_100,
    application: { uid: 'b1946ac92492d2347c6235b4d2611184' },
    created_at: 1_795_300_000,
  },
  auditEntry: wire.auditEntry(
    {
      id: 17,
      action: 'topic.ban',
      actor: alice,
      targetType: 'Topic',
      targetId: 42,
      changes: { node_id: [3, 1], lock_node: [false, true] },
      reason: 'spam',
      createdAt: at,
    },
    { id: 1, role: 'admin' },
  ),
  reviewItem: wire.reviewItem(
    {
      id: 5,
      kind: 'flag',
      targetType: 'Reply',
      targetId: reply.id,
      topic: null,
      reply,
      message: null,
      user: bob,
      flags: [{ user: alice, reason: 'spam', message: null, createdAt: later }],
      status: 'pending',
      resolution: null,
      createdAt: later,
      resolvedAt: null,
      resolvedBy: null,
    },
    { id: 1, role: 'admin' },
  ),
  upload: {
    id: 12,
    user: { id: 2, login: 'alice' },
    name: 'IMG_0042.jpg',
    contentType: 'image/jpeg',
    byteSize: 283_114,
    sha256: '3f2a7c0d5e9b41a68c1f0e2d3b4a59687766554433221100ffeeddccbbaa9988',
    width: 4_032,
    height: 3_024,
    createdAt: later,
    key: 'photos/3f/3f2a7c0d5e9b41a68c1f0e2d3b4a59687766554433221100ffeeddccbbaa9988.jpg',
    url: 'http://127.0.0.1:3000/uploads/photos/3f/3f2a7c0d5e9b41a68c1f0e2d3b4a59687766554433221100ffeeddccbbaa9988.jpg',
  } satisfies UploadView,
  search: wire.searchResult(
    {
      type: 'reply',
      topic,
      reply,
      highlight: [
        { text: 'Yes: ', marked: false },
        { text: 'offset', marked: true },
        { text: ' and limit.', marked: false },
      ],
    },
    viewer,
  ),
  ok: { ok: 1 as const },
};
