import { z } from 'zod';
import { SYSTEM_EVENTS } from '../../domain/replies/reply.js';
import { ROLES } from '../../domain/users/role.js';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, FLAG_REASONS, REVIEW_ACTIONS } from '../../domain/events.js';

/**
 * The wire shapes of contract §5 as zod schemas: the presenters in wire.ts return exactly these types, and the
 * OpenAPI document describes responses with them, so that what is sent and what is documented cannot drift apart.
 * Objects are strict: the document says no other key appears.
 */

const timestamp = z.iso.datetime().meta({ description: 'ISO 8601, UTC, milliseconds', example: '2026-11-21T08:15:30.123Z' });
const id = z.number().int().min(1).meta({ example: 42 });

export const UserSchema = z
  .strictObject({
    id,
    login: z.string().meta({ example: 'alice' }),
    name: z.string().nullable().meta({ example: 'Alice' }),
    avatar_url: z.url().meta({ example: 'http://127.0.0.1:3000/avatars/alice.svg' }),
    abilities: z
      .strictObject({ update: z.boolean(), destroy: z.boolean() })
      .meta({ id: 'UserAbilities', description: 'true only for an administrator caller' }),
  })
  .meta({ id: 'User', description: 'A user, as shown inside other objects and lists' });

const profile = z.string().nullable();

export const UserDetailSchema = UserSchema.extend({
  email: z.string().meta({ description: 'empty unless it is the caller’s own or its owner made it public' }),
  created_at: timestamp,
  topics_count: z.number().int(),
  replies_count: z.number().int(),
  followers_count: z.number().int(),
  following_count: z.number().int(),
  favorites_count: z.number().int(),
  level: z.enum(ROLES),
  level_name: z.enum(['Member', 'Admin', 'Banned']),
  location: profile,
  company: profile,
  twitter: profile,
  github: profile,
  website: profile,
  tagline: profile,
  bio: profile,
  groups: z
    .array(z.string())
    .meta({ description: 'the names of the user’s groups that are not hidden, by name', example: ['rubyists'] }),
}).meta({ id: 'UserDetail', description: 'A user’s profile' });

export const TopicAbilitiesSchema = z
  .strictObject({
    update: z.boolean(),
    destroy: z.boolean(),
    ban: z.boolean(),
    normal: z.boolean(),
    excellent: z.boolean(),
    unexcellent: z.boolean(),
    close: z.boolean(),
    open: z.boolean(),
  })
  .meta({ id: 'TopicAbilities', description: 'What the caller may do with the topic (an administrator: everything)' });

export const ReadStateSchema = z
  .strictObject({
    last_read_reply_id: id.nullable().meta({ description: 'the last reply the reader was shown; null: none yet' }),
    unread_replies_count: z
      .number()
      .int()
      .meta({ description: 'replies after it the reader may read, by others than them and anyone they blocked' }),
  })
  .meta({ id: 'ReadState', description: 'Where a reader left off in a topic' });

export const TopicSchema = z
  .strictObject({
    id,
    title: z.string().meta({ example: 'How do I paginate topics?' }),
    created_at: timestamp,
    updated_at: timestamp,
    replied_at: timestamp.nullable(),
    replies_count: z.number().int(),
    node_id: id,
    node_name: z.string(),
    last_reply_user_id: id.nullable(),
    last_reply_user_login: z.string().nullable(),
    grade: z.enum(['normal', 'excellent', 'ban']),
    excellent: z.union([z.literal(0), z.literal(1)]),
    likes_count: z.number().int(),
    hits: z.number().int(),
    lock_node: z.boolean(),
    suggested_at: timestamp.nullable().meta({ description: 'when an administrator pinned it; null when not pinned' }),
    closed_at: timestamp.nullable(),
    deleted: z.literal(false),
    user: UserSchema,
    abilities: TopicAbilitiesSchema,
    read_state: ReadStateSchema.nullable().optional().meta({
      description: 'where the signed-in reader left off: null when never opened; absent when signed out',
    }),
  })
  .meta({ id: 'Topic', description: 'A topic in a list (never its body)' });

export const TopicDetailSchema = TopicSchema.extend({
  body: z.string().meta({ description: 'the Markdown as submitted' }),
  body_html: z.string().meta({ description: 'the Markdown rendered to HTML and sanitized' }),
}).meta({ id: 'TopicDetail', description: 'A topic with its body' });

export const TopicMetaSchema = z
  .strictObject({ followed: z.boolean(), liked: z.boolean(), favorited: z.boolean() })
  .meta({ id: 'TopicMeta', description: 'The caller’s relation to the topic' });

export const ReplyAbilitiesSchema = z
  .strictObject({ update: z.boolean(), destroy: z.boolean() })
  .meta({ id: 'ReplyAbilities', description: 'What the caller may do with the reply' });

export const ReplySchema = z
  .strictObject({
    id,
    body: z.string().meta({ description: 'empty for a deleted reply' }),
    body_html: z.string(),
    topic_id: id,
    created_at: timestamp,
    updated_at: timestamp,
    likes_count: z.number().int(),
    liked_user_ids: z.array(id),
    action: z.enum(SYSTEM_EVENTS).nullable().meta({ description: 'null for a normal reply; the event for a system event' }),
    deleted: z.boolean(),
    user: UserSchema,
    abilities: ReplyAbilitiesSchema,
  })
  .meta({ id: 'Reply', description: 'A reply, or a system event, or a deleted reply keeping its place' });

export const ReplyDetailSchema = ReplySchema.extend({ topic_title: z.string() }).meta({
  id: 'ReplyDetail',
  description: 'A reply with the title of its topic',
});

export const NodeSchema = z
  .strictObject({
    id,
    name: z.string().meta({ example: 'General' }),
    summary: z.string(),
    sort: z.number().int(),
    topics_count: z.number().int(),
    updated_at: timestamp,
    section_id: id.meta({ description: 'the section it is listed under; 1 when none' }),
    section_name: z.string().meta({ example: 'Nodes', description: 'the section’s name; "Nodes" when none' }),
  })
  .meta({ id: 'Node', description: 'A node (a category of topics)' });

export const GroupSchema = z
  .strictObject({
    name: z.string().meta({ example: 'rubyists' }),
    title: z.string().meta({ example: 'Ruby people' }),
    members_count: z.number().int(),
  })
  .meta({ id: 'Group', description: 'A group of members' });

/** A conversation (contract §24), as its participants see it; nobody else sees it at all. */
export const ConversationSchema = z
  .strictObject({
    id,
    title: z.string().meta({ example: 'About the meetup' }),
    created_at: timestamp,
    updated_at: timestamp.meta({ description: 'its last activity' }),
    replied_at: timestamp.nullable(),
    replies_count: z.number().int(),
    last_reply_id: id.nullable(),
    last_reply_user_id: id.nullable(),
    last_reply_user_login: z.string().nullable(),
    user: UserSchema.meta({ description: 'who started it' }),
    participants: z.array(UserSchema).meta({ description: 'the users named in it (those who left aside)' }),
    groups: z
      .array(z.strictObject({ name: z.string(), title: z.string() }))
      .meta({ description: 'groups whose members take part' }),
    unread_replies_count: z.number().int().meta({
      description: 'messages the caller has yet to read, the opening one included when they never opened it',
    }),
  })
  .meta({ id: 'Conversation', description: 'A private conversation, in a list (never its body)' });

export const ConversationDetailSchema = ConversationSchema.extend({
  body: z.string().meta({ description: 'the opening message’s Markdown' }),
  body_html: z.string().meta({ description: 'the opening message rendered to HTML and sanitized' }),
}).meta({ id: 'ConversationDetail', description: 'A private conversation with its opening message' });

const notification = {
  id,
  read: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
  actor: UserSchema.optional(),
};

/** Contract §5: the related records by type; a key whose record was deleted is absent. */
export const NotificationSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      ...notification,
      type: z.literal('TopicReply'),
      reply: ReplySchema.optional(),
      topic: TopicSchema.optional(),
    }),
    z.strictObject({
      ...notification,
      type: z.literal('Mention'),
      mention_type: z.enum(['Topic', 'Reply']),
      mention: z.union([TopicSchema, ReplySchema]).optional(),
      topic: TopicSchema.optional(),
    }),
    z.strictObject({
      ...notification,
      type: z.literal('NodeChanged'),
      topic: TopicSchema.optional(),
      node: NodeSchema.optional(),
    }),
    z.strictObject({ ...notification, type: z.literal('Topic'), topic: TopicSchema.optional() }),
    z.strictObject({ ...notification, type: z.literal('Follow') }),
  ])
  .meta({ id: 'Notification', description: 'A notification of the caller' });

/** Contract §11: a match, its topic (and its reply), and an excerpt with only <mark> tags in it. */
export const SearchResultSchema = z
  .strictObject({
    type: z.enum(['Topic', 'Reply']),
    topic: TopicSchema,
    reply: ReplySchema.optional().meta({ description: 'Replies only' }),
    highlight: z.string().meta({
      description: 'An excerpt around the match as plain text (&, < and > escaped) with the matches in <mark> tags',
    }),
  })
  .meta({ id: 'SearchResult', description: 'A search result: the topic, the reply for a reply, and an excerpt' });

/** Contract §14: one moderation or administration act. */
export const AuditEntrySchema = z
  .strictObject({
    id,
    action: z.enum(AUDIT_ACTIONS),
    actor: UserSchema,
    target_type: z.enum(AUDIT_TARGET_TYPES),
    target_id: id,
    changes: z
      .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
      .meta({ description: 'each changed field: [before, after]', example: { node_id: [3, 1] } }),
    reason: z.string().nullable().meta({ example: 'spam' }),
    created_at: timestamp,
  })
  .meta({ id: 'AuditEntry', description: 'A moderation or administration act: who, what, on what, the changes and why' });

/** A flagged or held topic as the review queue shows it: as its author and administrators see it, deleted or not. */
const ReviewTopicSchema = TopicDetailSchema.extend({ deleted: z.boolean() }).meta({
  id: 'ReviewTopic',
  description: 'A topic with its body, as administrators see it (deleted: true once it was deleted)',
});

export const FlagSchema = z
  .strictObject({
    user: UserSchema,
    reason: z.enum(FLAG_REASONS),
    message: z.string().nullable().meta({ example: 'links to a pharmacy' }),
    created_at: timestamp,
  })
  .meta({ id: 'Flag', description: 'Who flagged a post, why, and when' });

export const ReviewItemSchema = z
  .strictObject({
    id,
    kind: z.enum(['flag', 'hold']).meta({ description: 'flag: a post flagged; hold: a new member’s post waiting for approval' }),
    target_type: z.enum(['Topic', 'Reply']),
    target_id: id,
    topic: ReviewTopicSchema.optional().meta({ description: 'when target_type is Topic' }),
    reply: ReplyDetailSchema.optional().meta({ description: 'when target_type is Reply' }),
    message: z
      .strictObject({
        id,
        body: z.string(),
        body_html: z.string(),
        user: UserSchema,
        created_at: timestamp,
        deleted: z.boolean(),
      })
      .optional()
      .meta({
        description:
          'instead of topic and reply, a private message: the flagged one only, nothing else of its conversation; ' +
          'showing it to an administrator is written in the audit log',
      }),
    user: UserSchema,
    flags: z.array(FlagSchema).meta({ description: 'every flag of the item, oldest first (none for a hold)' }),
    status: z.enum(['pending', 'resolved']),
    resolution: z
      .enum([...REVIEW_ACTIONS, 'deleted'])
      .nullable()
      .meta({ description: 'the action that resolved it; deleted: its post was deleted outside the queue' }),
    created_at: timestamp,
    resolved_at: timestamp.nullable(),
    // A union, not .nullable(): the generator writes a nullable reference as allOf with the reference, which null fails.
    resolved_by: z.union([UserSchema, z.null()]),
  })
  .meta({ id: 'ReviewItem', description: 'One post in the review queue, with every flag on it' });

export const UploadSchema = z
  .strictObject({
    id,
    url: z.url().meta({ example: 'http://127.0.0.1:3000/uploads/photos/3f/3f2a….jpg' }),
    name: z.string().nullable().meta({ description: 'the name the file was sent with', example: 'IMG_0042.jpg' }),
    content_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    byte_size: z.number().int().min(1),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'of the file as stored (cleaned)' }),
    width: z.number().int().min(1),
    height: z.number().int().min(1),
    created_at: timestamp,
    user: z.strictObject({ id, login: z.string() }).meta({ description: 'who uploaded it' }),
  })
  .meta({ id: 'Upload', description: 'An uploaded file, as its uploader sees it' });

export const OkSchema = z.strictObject({ ok: z.literal(1) }).meta({ id: 'Ok', description: 'The acknowledgement' });

/** The token response of RFC 6749 §5.1, plus Doorkeeper's `created_at` (homeland's clients read it). */
export const TokenSchema = z
  .strictObject({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().optional().meta({ description: 'absent for client credentials' }),
    scope: z.enum(['all', 'read']),
    created_at: z.number().int().meta({ description: 'seconds since the epoch' }),
  })
  .meta({ id: 'Token', description: 'An issued access token' });

/** RFC 7662 §2.2: a live token described, or only `active: false`. */
export const IntrospectionSchema = z
  .union([
    z.strictObject({
      active: z.literal(true),
      scope: z.enum(['all', 'read']),
      client_id: z.string().optional().meta({ description: 'absent for a token issued by forumctl' }),
      username: z.string().optional().meta({ description: 'the login; absent for client credentials' }),
      token_type: z.enum(['Bearer', 'refresh_token']),
      exp: z.number().int().optional().meta({ description: 'seconds since the epoch; absent when it never expires' }),
      iat: z.number().int().meta({ description: 'seconds since the epoch' }),
    }),
    z.strictObject({ active: z.literal(false) }),
  ])
  .meta({ id: 'Introspection', description: 'RFC 7662: whether a token is live, and what it is' });

/** Doorkeeper's token info, which homeland clients read. */
export const TokenInfoSchema = z
  .strictObject({
    resource_owner_id: z.number().int().nullable().meta({ description: 'the user id; null for client credentials' }),
    scope: z.array(z.enum(['all', 'read'])),
    expires_in: z.number().int().meta({ description: 'seconds left' }),
    application: z.strictObject({ uid: z.string().nullable().meta({ description: 'client_id; null for forumctl' }) }),
    created_at: z.number().int().meta({ description: 'seconds since the epoch' }),
  })
  .meta({ id: 'TokenInfo', description: 'The caller’s access token (Doorkeeper’s shape)' });

export const LikeResultSchema = z
  .strictObject({ obj_type: z.enum(['topic', 'reply']), obj_id: id, count: z.number().int() })
  .meta({ id: 'LikeResult', description: 'The liked object and its like count' });
