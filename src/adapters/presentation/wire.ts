/** The wire shapes of contract §5, shared by the HTTP API and forumctl's --json output. */
import type {
  GroupView,
  ReadState,
  NodeView,
  NotificationView,
  ReplyDetailView,
  ReplyView,
  TopicDetailView,
  TopicView,
  UserDetailView,
  UserView,
} from '../../application/read-models.js';
import type { z } from 'zod';
import escapeHtml from 'escape-html';
import type { HighlightPart } from '../../application/search/highlight.js';
import type { SearchResult } from '../../application/search/search.js';
import { policy } from '../../domain/shared/policy.js';
import { READERS, readerOf, replyVisibleTo } from '../../domain/visibility/visibility.js';
import type { Viewer } from '../../domain/users/role.js';
import type { AuditEntry } from '../../application/audit/audit-log.js';
import type { CreatedReply } from '../../application/replies/create-reply.js';
import type { ReviewItemView } from '../../application/review/ports.js';
import type { UploadView } from '../../application/uploads/ports.js';
import type { ConversationDetailView, ConversationView } from '../../application/conversations/ports.js';
import type {
  AuditEntrySchema,
  ConversationDetailSchema,
  ConversationSchema,
  GroupSchema,
  NodeSchema,
  NotificationSchema,
  ReplyDetailSchema,
  ReplySchema,
  ReviewItemSchema,
  SearchResultSchema,
  UploadSchema,
  TopicDetailSchema,
  TopicSchema,
  UserDetailSchema,
  UserSchema,
} from './schemas.js';

// Views to wire JSON, exactly as contract §5 names the keys, typed by the schemas the OpenAPI document is made of.
// The caller's abilities are computed here, by the policy.

function iso(date: Date): string;
function iso(date: Date | null): string | null;
function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** A highlight as contract §11 writes it: text, escaped, with <mark> around the matches and no other tag. */
export function markedText(parts: readonly HighlightPart[]): string {
  return parts.map((part) => (part.marked ? `<mark>${escapeHtml(part.text)}</mark>` : escapeHtml(part.text))).join('');
}

/** What homeland reports for a node outside any section. */
const DEFAULT_SECTION = { id: 1, name: 'Nodes' } as const;

const LEVEL_NAMES = { member: 'Member', admin: 'Admin', blocked: 'Banned' } as const;

export class Wire {
  /** `publicUrl`: where clients reach this service (absolute avatar URLs are built from it). */
  constructor(private readonly publicUrl: string) {
    this.publicUrl = publicUrl.replace(/\/+$/, '');
  }

  /** An absolute URL of this service (`/account/sign-up?invite=…`), for links printed or mailed. */
  url(pathAndQuery: string): string {
    return `${this.publicUrl}${pathAndQuery}`;
  }

  avatarUrl(login: string): string {
    return `${this.publicUrl}/avatars/${encodeURIComponent(login)}.svg`;
  }

  user(user: UserView, viewer: Viewer | null): z.infer<typeof UserSchema> {
    return {
      id: user.id,
      login: user.login,
      name: user.name,
      avatar_url: this.avatarUrl(user.login),
      abilities: policy.userAbilities(viewer),
    };
  }

  topic(topic: TopicView, viewer: Viewer | null): z.infer<typeof TopicSchema> {
    return {
      id: topic.id,
      title: topic.title,
      created_at: iso(topic.createdAt),
      updated_at: iso(topic.updatedAt),
      replied_at: iso(topic.repliedAt),
      replies_count: topic.repliesCount,
      node_id: topic.nodeId,
      node_name: topic.nodeName,
      last_reply_user_id: topic.lastReplyUserId,
      last_reply_user_login: topic.lastReplyUserLogin,
      grade: topic.grade,
      excellent: topic.grade === 'excellent' ? 1 : 0,
      likes_count: topic.likesCount,
      hits: topic.hits,
      lock_node: topic.lockNode,
      suggested_at: iso(topic.suggestedAt),
      closed_at: iso(topic.closedAt),
      deleted: false,
      user: this.user(topic.user, viewer),
      abilities: policy.topicAbilities(viewer, {
        userId: topic.user.id,
        hasRepliesFromOthers: topic.hasRepliesFromOthers,
        moderated: topic.moderated,
      }),
      // Undefined (for nobody signed in) is left out of the JSON.
      read_state: topic.readState === undefined ? undefined : readStateOf(topic.readState),
    };
  }

  topicDetail(topic: TopicDetailView, viewer: Viewer | null): z.infer<typeof TopicDetailSchema> {
    return { ...this.topic(topic, viewer), body: topic.body, body_html: topic.bodyHtml };
  }

  /**
   * A reply the viewer may not open (READERS.post: deleted, or held or hidden from them, contract §18) keeps its place
   * in the stream but shows no text.
   */
  reply(reply: ReplyView, viewer: Viewer | null): z.infer<typeof ReplySchema> {
    const facts = {
      userId: reply.user.id,
      visibility: reply.visibility,
      deleted: reply.deleted,
      systemEvent: reply.action !== null,
    };
    const deleted = !replyVisibleTo(READERS.post, readerOf(viewer), facts);
    return {
      id: reply.id,
      body: deleted ? '' : reply.body,
      body_html: deleted ? '' : reply.bodyHtml,
      topic_id: reply.topicId,
      created_at: iso(reply.createdAt),
      updated_at: iso(reply.updatedAt),
      likes_count: reply.likesCount,
      liked_user_ids: reply.likedUserIds,
      action: reply.action,
      deleted,
      user: this.user(reply.user, viewer),
      abilities: policy.replyAbilities(viewer, {
        userId: reply.user.id,
        isSystemEvent: reply.action !== null,
        deleted,
        moderated: reply.moderated ?? false,
      }),
    };
  }

  /** A conversation (contract §24): who takes part, its last message, what the caller has yet to read. */
  conversation(conversation: ConversationView, viewer: Viewer | null): z.infer<typeof ConversationSchema> {
    return {
      id: conversation.id,
      title: conversation.title,
      created_at: iso(conversation.createdAt),
      updated_at: iso(conversation.updatedAt),
      replied_at: iso(conversation.repliedAt),
      replies_count: conversation.repliesCount,
      last_reply_id: conversation.lastReplyId,
      last_reply_user_id: conversation.lastReplyUserId,
      last_reply_user_login: conversation.lastReplyUserLogin,
      user: this.user(conversation.user, viewer),
      participants: conversation.participants.map((user) => this.user(user, viewer)),
      groups: conversation.groups.map((group) => ({ name: group.name, title: group.title })),
      unread_replies_count: conversation.unreadRepliesCount,
    };
  }

  conversationDetail(conversation: ConversationDetailView, viewer: Viewer | null): z.infer<typeof ConversationDetailSchema> {
    return { ...this.conversation(conversation, viewer), body: conversation.body, body_html: conversation.bodyHtml };
  }

  /** Contract §11: the highlight is text, escaped, with <mark> around the matches and no other tag. */
  searchResult(result: SearchResult, viewer: Viewer | null): z.infer<typeof SearchResultSchema> {
    return {
      type: result.reply ? 'Reply' : 'Topic',
      topic: this.topic(result.topic, viewer),
      ...(result.reply ? { reply: this.reply(result.reply, viewer) } : {}),
      highlight: markedText(result.highlight),
    };
  }

  replyDetail(reply: ReplyDetailView, viewer: Viewer | null): z.infer<typeof ReplyDetailSchema> {
    return { ...this.reply(reply, viewer), topic_title: reply.topicTitle };
  }

  /** A reply just written, as the API shows it: nobody has liked it yet. */
  newReply({ reply, topicTitle, author }: CreatedReply, viewer: Viewer | null): z.infer<typeof ReplyDetailSchema> {
    const view: ReplyDetailView = {
      id: reply.id,
      topicId: reply.topicId,
      body: reply.body,
      bodyHtml: reply.bodyHtml,
      createdAt: reply.createdAt,
      updatedAt: reply.updatedAt,
      action: reply.action,
      visibility: reply.visibility,
      likesCount: 0,
      likedUserIds: [],
      deleted: false,
      user: author,
      topicTitle,
    };
    return this.replyDetail(view, viewer);
  }

  /** Only administrators read the audit log. */
  auditEntry(entry: AuditEntry, viewer: Viewer | null): z.infer<typeof AuditEntrySchema> {
    return {
      id: entry.id,
      action: entry.action,
      actor: this.user(entry.actor, viewer),
      target_type: entry.targetType,
      target_id: entry.targetId,
      changes: entry.changes,
      reason: entry.reason,
      created_at: iso(entry.createdAt),
    };
  }

  /** Contract §19: an upload, as its uploader (or an administrator) sees it. */
  upload(upload: UploadView): z.infer<typeof UploadSchema> {
    return {
      id: upload.id,
      url: upload.url,
      name: upload.name,
      content_type: upload.contentType as z.infer<typeof UploadSchema>['content_type'],
      byte_size: upload.byteSize,
      sha256: upload.sha256,
      width: upload.width,
      height: upload.height,
      created_at: iso(upload.createdAt),
      user: { id: upload.user.id, login: upload.user.login },
    };
  }

  /** Contract §18: an item of the review queue, its post as administrators see it. */
  reviewItem(item: ReviewItemView, viewer: Viewer | null): z.infer<typeof ReviewItemSchema> {
    return {
      id: item.id,
      kind: item.kind,
      target_type: item.targetType,
      target_id: item.targetId,
      ...(item.topic ? { topic: { ...this.topicDetail(item.topic.view, viewer), deleted: item.topic.deleted } } : {}),
      ...(item.reply ? { reply: this.replyDetail(item.reply, viewer) } : {}),
      ...(item.message
        ? {
            message: {
              id: item.message.id,
              body: item.message.body,
              body_html: item.message.bodyHtml,
              user: this.user(item.message.user, viewer),
              created_at: iso(item.message.createdAt),
              deleted: item.message.deleted,
            },
          }
        : {}),
      user: this.user(item.user, viewer),
      flags: item.flags.map((flag) => ({
        user: this.user(flag.user, viewer),
        reason: flag.reason,
        message: flag.message,
        created_at: iso(flag.createdAt),
      })),
      status: item.status,
      resolution: item.resolution,
      created_at: iso(item.createdAt),
      resolved_at: iso(item.resolvedAt),
      resolved_by: item.resolvedBy ? this.user(item.resolvedBy, viewer) : null,
    };
  }

  /** Contract §5: the related records by type; a key whose record was deleted is absent. */
  notification(notification: NotificationView, viewer: Viewer): z.infer<typeof NotificationSchema> {
    const { topic, reply, node } = notification;
    const common = {
      id: notification.id,
      read: notification.read,
      created_at: iso(notification.createdAt),
      updated_at: iso(notification.updatedAt),
      ...(notification.actor ? { actor: this.user(notification.actor, viewer) } : {}),
    };
    const withTopic = topic ? { topic: this.topic(topic, viewer) } : {};
    switch (notification.type) {
      case 'TopicReply':
        return { ...common, type: 'TopicReply', ...(reply ? { reply: this.reply(reply, viewer) } : {}), ...withTopic };
      case 'Mention': {
        const mention =
          notification.mentionType === 'Reply' ? reply && this.reply(reply, viewer) : topic && this.topic(topic, viewer);
        return {
          ...common,
          type: 'Mention',
          mention_type: notification.mentionType ?? 'Topic',
          ...(mention ? { mention } : {}),
          // The topic itself, or the topic of the mentioning reply: clients open a notification through topic.id.
          ...withTopic,
        };
      }
      case 'NodeChanged':
        return { ...common, type: 'NodeChanged', ...withTopic, ...(node ? { node: this.node(node) } : {}) };
      case 'Topic':
        return { ...common, type: 'Topic', ...withTopic };
      case 'Follow':
        return { ...common, type: 'Follow' };
    }
  }

  /** A node in no section reports homeland's default one (contract §5). */
  node(node: NodeView): z.infer<typeof NodeSchema> {
    return {
      id: node.id,
      name: node.name,
      summary: node.summary,
      sort: node.sort,
      topics_count: node.topicsCount,
      updated_at: iso(node.updatedAt),
      section_id: node.section?.id ?? DEFAULT_SECTION.id,
      section_name: node.section?.name ?? DEFAULT_SECTION.name,
    };
  }

  userDetail(user: UserDetailView, viewer: Viewer | null): z.infer<typeof UserDetailSchema> {
    return {
      ...this.user(user, viewer),
      email: viewer?.id === user.id || user.emailPublic ? user.email : '',
      created_at: iso(user.createdAt),
      topics_count: user.topicsCount,
      replies_count: user.repliesCount,
      followers_count: user.followersCount,
      following_count: user.followingCount,
      favorites_count: user.favoritesCount,
      level: user.role,
      level_name: LEVEL_NAMES[user.role],
      location: user.location,
      company: user.company,
      twitter: user.twitter,
      github: user.github,
      website: user.website,
      tagline: user.tagline,
      bio: user.bio,
      groups: user.groups,
    };
  }

  group(group: GroupView): z.infer<typeof GroupSchema> {
    return { name: group.name, title: group.title, members_count: group.membersCount };
  }
}

export const OK = { ok: 1 } as const;

const readStateOf = (state: ReadState | null) =>
  state && { last_read_reply_id: state.lastReadReplyId, unread_replies_count: state.unreadRepliesCount };
