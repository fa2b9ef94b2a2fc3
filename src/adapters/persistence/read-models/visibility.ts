/**
 * The visibility policy (domain/visibility/visibility.ts) compiled to SQL: the one place where "who may see a post"
 * is written as SQL. Every statement that shows, lists, mails, counts or indexes posts takes its condition from here
 * (`topicCondition`, `replyCondition`) for the reader profile it serves; the search functions are generated from it
 * too (search-functions.ts). Each condition below is the SQL twin of the domain condition of the same name, and
 * test/integration/visibility-parity.test.ts runs both over the same rows: changed alone, either fails it.
 */

import type { Viewer } from '../../../domain/users/role.js';
import { BAN_GRADE } from '../../../domain/topics/topic.js';
import {
  READERS,
  type ReaderProfile,
  type ReplyRule,
  type TopicRule,
  REPLY_RULES,
  TOPIC_RULES,
} from '../../../domain/visibility/visibility.js';

/**
 * The reader of a statement, as SQL: their user id (null when signed out), whether they are an administrator,
 * whether they are a member in good standing (signed in, not blocked: a members-only node's readers, §23), and the
 * ids of their groups (an array, off their row: `users.group_ids`, kept from `group_members` by its triggers).
 */
export interface SqlReader {
  id: string;
  admin: string;
  member: string;
  groups: string;
}

/** The groups of the user `id` (an SQL expression), off their row: a primary key probe. */
export const groupsOf = (id: string) => `(select gu.group_ids from users gu where gu.id = ${id})`;

/** Someone signed out (and what is sent to everyone): the conditions that read who reads fall away. */
export const SIGNED_OUT: SqlReader = { id: 'null::int', admin: 'false', member: 'false', groups: "'{}'::int[]" };

/** The caller found by VIEWER_CTE, joined as `v` (callers.ts); no row is someone signed out. */
export const VIEWER: SqlReader = {
  id: 'v.id',
  admin: "coalesce(v.role = 'admin', false)",
  member: "coalesce(v.role <> 'blocked', false)",
  groups: 'v.groups',
};

/** The caller found by VIEWER_CTE, where its row cannot be joined (inside another CTE). */
export const VIEWER_CTE_READER: SqlReader = {
  id: '(select id from viewer)',
  admin: "exists(select 1 from viewer where role = 'admin')",
  member: "exists(select 1 from viewer where role <> 'blocked')",
  groups: '(select groups from viewer)',
};

/**
 * A reader the code knows (a Viewer, or null), whose id (or null) the statement binds as `id` (a `$n`, always read):
 * whether they are an administrator is written into the text (a statement is prepared per text: two texts at most).
 */
export const readerAs = (viewer: Viewer | null, id: string): SqlReader => ({
  id,
  admin: viewer?.role === 'admin' ? 'true' : 'false',
  member: viewer !== null && viewer.role !== 'blocked' ? 'true' : 'false',
  groups: groupsOf(id),
});

/** A member who is not read as an administrator (a digest's recipient), named by `id` in SQL. */
export const memberAt = (id: string): SqlReader => ({ id, admin: 'false', member: 'true', groups: groupsOf(id) });

/** A user named by an id in SQL (a `$n` parameter, a column): their role is looked up in the statement. */
export const readerOf = (id: string): SqlReader => ({
  id,
  admin: `exists(select 1 from users admins where admins.id = ${id} and admins.role = 'admin')`,
  member: `exists(select 1 from users members where members.id = ${id} and members.role <> 'blocked')`,
  groups: groupsOf(id),
});

/** Where a condition finds its rows: the post's alias, and for a topic its node's (when a condition reads it). */
interface Rows {
  post: string;
  node?: string;
}

/** A condition in SQL; null when it holds for every row for this reader (someone signed out has no blocks). */
type Compiled = (rows: Rows, reader: SqlReader) => string | null;

const signedOut = (reader: SqlReader) => reader === SIGNED_OUT;
const nodeOf = (rows: Rows) => {
  if (!rows.node) throw new Error(`a visibility condition reads the node of ${rows.post}: join it and name its alias`);
  return rows.node;
};
const isPublic = (alias: string) => `${alias}.visibility = 'public'`;

/**
 * Whether `reader` may read in the node `node` (contract §23), the twin of the domain's `nodeReadableBy`: a node
 * everyone reads decides by its own column; only another asks who reads, and only then their groups.
 */
export function nodeCondition(reader: SqlReader, node: string): string {
  const everyone = `${node}.read_access = 'everyone'`;
  if (signedOut(reader)) return everyone;
  return `(${everyone} or ${reader.admin} or (${node}.read_access = 'members' and ${reader.member})
    or coalesce(${reader.groups} && ${node}.moderator_groups, false)
    or (${node}.read_access = 'groups' and coalesce(${reader.groups} && ${node}.read_groups, false)))`;
}

const POST_SQL = {
  present: ({ post }) => `${post}.deleted_at is null`,
  shownToReader: ({ post }, reader) =>
    signedOut(reader)
      ? isPublic(post)
      : `(${isPublic(post)} or coalesce(${post}.user_id = ${reader.id}, false) or ${reader.admin})`,
  public: ({ post }) => isPublic(post),
  published: ({ post }) => `${post}.visibility <> 'held'`,
  authorNotBlocked: ({ post }, reader) =>
    signedOut(reader)
      ? null
      : `not exists (select 1 from user_blocks b where b.user_id = ${reader.id} and b.blocked_user_id = ${post}.user_id)`,
  byOthers: ({ post }, reader) => (signedOut(reader) ? null : `coalesce(${post}.user_id <> ${reader.id}, true)`),
} satisfies Record<string, Compiled>;

/**
 * Whether the user in the groups `groups` (an SQL array) moderates the node `node` (contract §23): the SQL twin of the
 * domain's `mayModerate` for someone who is not an administrator (the policy tells administrators apart). A node
 * without moderators answers by its own column (the groups, when a probe, are not read).
 */
export const moderatedCondition = (groups: string, node: string): string =>
  `case when ${node}.moderator_groups = '{}' then false else coalesce(${groups} && ${node}.moderator_groups, false) end`;

/** A condition on a topic's node, which a topic in no node (a conversation) never meets. */
const inNodeWhere = (post: string, condition: string) => `(${post}.node_id is not null and ${condition})`;

/**
 * Whether the user `id` takes part in the conversation `topic` (contract §24), the twin of the domain's
 * `participant`: named in it and not gone, or in a group that takes part and not gone (an index probe on the
 * conversation's participants, and on the reader's memberships only when a group takes part).
 */
export const participantCondition = (id: string, topic: string): string =>
  `(${topic}.node_id is null and exists (select 1 from conversation_participants cp where cp.topic_id = ${topic}.id and (
     (cp.user_id = ${id} and cp.left_at is null)
     or (cp.group_id is not null
         and exists (select 1 from group_members gm where gm.group_id = cp.group_id and gm.user_id = ${id})
         and not exists (select 1 from conversation_participants gone where gone.topic_id = ${topic}.id and gone.user_id = ${id})))))`;

const TOPIC_SQL: Record<TopicRule, Compiled> = {
  ...POST_SQL,
  notBanned: ({ post }) => `${post}.grade <> '${BAN_GRADE}'`,
  inNode: ({ post }) => `${post}.node_id is not null`,
  nodeListed: (rows, reader) =>
    inNodeWhere(
      rows.post,
      signedOut(reader) ? `not ${nodeOf(rows)}.hidden` : `(${reader.id} is not null or not ${nodeOf(rows)}.hidden)`,
    ),
  nodeNotHidden: (rows) => inNodeWhere(rows.post, `not ${nodeOf(rows)}.hidden`),
  nodeNotBlocked: ({ post }, reader) =>
    signedOut(reader)
      ? null
      : `not exists (select 1 from node_blocks b where b.user_id = ${reader.id} and b.node_id = ${post}.node_id)`,
  // Read off the node's row where the statement joins it; else found by the topic's node id (a primary key probe).
  nodeReadable: ({ post, node }, reader) =>
    node
      ? inNodeWhere(post, nodeCondition(reader, node))
      : `exists (select 1 from nodes rn where rn.id = ${post}.node_id and ${nodeCondition(reader, 'rn')})`,
  participant: ({ post }, reader) => (signedOut(reader) ? 'false' : `coalesce(${participantCondition(reader.id, post)}, false)`),
};

const REPLY_SQL: Record<ReplyRule, Compiled> = {
  ...POST_SQL,
  byHand: ({ post }) => `${post}.action is null`,
};

// Every condition of the domain has its SQL, and nothing else does (a record type checks the first; this the second).
for (const [domain, sql] of [
  [TOPIC_RULES, TOPIC_SQL],
  [REPLY_RULES, REPLY_SQL],
] as const) {
  const missing = Object.keys(domain).filter((rule) => !(rule in sql));
  if (missing.length > 0) throw new Error(`visibility conditions without SQL: ${missing.join(', ')}`);
}

function conjunction(parts: (string | null)[]): string {
  const kept = parts.filter((part): part is string => part !== null);
  return kept.length === 0 ? 'true' : kept.join(' and ');
}

/** The condition under which `reader` finds the topic `topic` (its node joined as `node`) under `profile`. */
export function topicCondition(profile: ReaderProfile, reader: SqlReader, rows: { topic: string; node?: string }): string {
  const at = { post: rows.topic, ...(rows.node ? { node: rows.node } : {}) };
  return conjunction(profile.topic.map((rule) => TOPIC_SQL[rule](at, reader)));
}

/** The condition under which `reader` finds the reply `reply` under `profile`, its topic aside. */
export function replyCondition(profile: ReaderProfile, reader: SqlReader, reply: string): string {
  return conjunction(profile.reply.map((rule) => REPLY_SQL[rule]({ post: reply }, reader)));
}

/** The topics that count and are indexed (READERS.counted), over `alias`: counts are everyone's, so no reader. */
export const countedTopic = (alias: string) => topicCondition(READERS.counted, SIGNED_OUT, { topic: alias });

/** The replies that count and are indexed (READERS.counted), over `alias`. */
export const countedReply = (alias: string) => replyCondition(READERS.counted, SIGNED_OUT, alias);

/**
 * A topic of the forum in any state (READERS.anyState), over `alias`: never a conversation. A reply is the forum's
 * when its topic is: what reads replies by their own state alone (counts, the index, forumctl) joins its topic to this.
 */
export const forumTopic = (alias: string) => topicCondition(READERS.anyState, SIGNED_OUT, { topic: alias });
