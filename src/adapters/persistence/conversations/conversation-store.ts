import type { GroupMember, Named } from '../../../domain/conversations/conversation.js';
import type {
  ConversationOpening,
  ConversationPlace,
  ConversationStore,
  MessageTarget,
  NamedRecipients,
} from '../../../application/conversations/ports.js';
import { Reply } from '../../../domain/replies/reply.js';
import type { Visibility } from '../../../domain/shared/post.js';
import { groupsOf } from '../read-models/visibility.js';
import type { Sql } from '../database/sql.js';
import { type AuthorRow, authorColumns, authorOf } from '../posts/posting-facts.js';
import type { StagedRows } from '../staged/staged-rows.js';

interface PlaceRow {
  user_id: number;
  visibility: Visibility;
  deleted: boolean;
  title: string;
  user_ids: number[];
  group_ids: number[];
  left_ids: number[];
  reader_group_ids: number[];
}

/** Conversation `t` as the user `$2` would be let in (ConversationPlace). */
const PLACE_COLUMNS = `t.user_id, t.visibility, t.deleted_at is not null as deleted, t.title,
  array(select user_id from conversation_participants where topic_id = t.id and user_id is not null and left_at is null order by user_id) as user_ids,
  array(select group_id from conversation_participants where topic_id = t.id and group_id is not null order by group_id) as group_ids,
  array(select user_id from conversation_participants where topic_id = t.id and left_at is not null) as left_ids,
  coalesce(${groupsOf('$2::int')}, '{}') as reader_group_ids`;

function placeOf(row: PlaceRow): ConversationPlace {
  return {
    facts: {
      userId: row.user_id,
      visibility: row.visibility,
      deleted: row.deleted,
      banned: false,
      nodeId: null,
      conversation: { userIds: new Set(row.user_ids), groupIds: new Set(row.group_ids), leftIds: new Set(row.left_ids) },
    },
    readerGroupIds: row.reader_group_ids,
    title: row.title,
    named: { userIds: row.user_ids, groupIds: row.group_ids },
  };
}

interface NamedRow {
  users: { id: number; login: string; asked: string; blocked: boolean }[];
  groups: { id: number; name: string; asked: string }[];
}

/**
 * The users and groups `$2` (names) names, as recipients of the user `$1`: `named_users` and `named_groups`. A login
 * wins over a group of the same name; a hidden group is known only to administrators (§23), so not here.
 */
const NAMED = `asked as (select distinct lower(name) as name from unnest($2::text[]) name),
  named_users as (select u.id, u.login::text as login, asked.name as asked,
                    exists (select 1 from user_blocks b where b.user_id = u.id and b.blocked_user_id = $1) as blocked
                  from asked join users u on lower(u.login) = asked.name),
  named_groups as (select g.id, g.name::text as name, asked.name as asked from asked join groups g on lower(g.name) = asked.name
                   where not g.hidden and not exists (select 1 from named_users nu where nu.asked = asked.name))`;
const NAMED_COLUMNS = `coalesce((select json_agg(named_users) from named_users), '[]') as users,
  coalesce((select json_agg(named_groups) from named_groups), '[]') as groups`;

/** Members of the groups that `ids` (an SQL expression of group ids) names, as `GroupMember`s. */
const membersOf = (ids: string) => `coalesce((select json_agg(json_build_object('userId', gm.user_id, 'groupId', gm.group_id))
  from group_members gm where gm.group_id in (${ids})), '[]')`;

function recipientsOf(row: NamedRow, names: readonly string[]): NamedRecipients {
  const found = new Set([...row.users, ...row.groups].map((named) => named.asked));
  return {
    users: row.users.map((user) => ({ id: user.id, login: user.login, blockedSender: user.blocked })),
    groups: row.groups.map((group) => ({ id: group.id, name: group.name })),
    unknown: names.filter((name) => !found.has(name.toLowerCase())),
  };
}

/**
 * Conversations kept as topics in no node, their messages as replies, who takes part beside them (contract §24). A
 * new conversation or message is staged with the rest of its unit of work (staged/writers/new-conversations.ts, and
 * the replies', counters' and marks' writers): the read before it draws its id, and the write is one statement.
 */
export class SqlConversationStore implements ConversationStore {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  async recipients(senderId: number, names: readonly string[]): Promise<NamedRecipients> {
    const [row] = await this.sql.all<NamedRow>(`with ${NAMED} select ${NAMED_COLUMNS}`, [senderId, names]);
    return recipientsOf(row!, names);
  }

  async opening(senderId: number, names: readonly string[]): Promise<ConversationOpening> {
    const [row] = await this.sql.all<NamedRow & AuthorRow & { members: GroupMember[]; conversation_id: number }>(
      `with ${NAMED}
       select ${NAMED_COLUMNS}, ${authorColumns('s')}, ${membersOf('select id from named_groups')} as members,
         nextval('topics_id_seq')::int as conversation_id
       from users s where s.id = $1`,
      [senderId, names],
    );
    if (!row) throw new Error(`no user ${senderId} to start a conversation`);
    return { ...recipientsOf(row, names), author: authorOf(row), members: row.members, conversationId: row.conversation_id };
  }

  async start(conversation: {
    id: number;
    userId: number;
    title: string;
    body: string;
    bodyHtml: string;
    named: Named;
    at: Date;
  }): Promise<void> {
    await this.staged.conversations([conversation]);
    // The starter has read what they wrote: their mark is there from the start (contract §22).
    await this.staged.writersMarks([{ userId: conversation.userId, topicId: conversation.id, replyId: null }]);
  }

  async place(id: number, readerId: number): Promise<ConversationPlace | null> {
    const row = await this.sql.one<PlaceRow>(`select ${PLACE_COLUMNS} from topics t where t.id = $1 and t.node_id is null`, [
      id,
      readerId,
    ]);
    return row && placeOf(row);
  }

  async messageTarget(id: number, writerId: number): Promise<MessageTarget | null> {
    const row = await this.sql.one<PlaceRow & AuthorRow & { members: GroupMember[]; message_id: number }>(
      `select ${PLACE_COLUMNS}, ${authorColumns('w')},
         ${membersOf('select group_id from conversation_participants where topic_id = t.id and group_id is not null')} as members,
         nextval('replies_id_seq')::int as message_id
       from topics t join users w on w.id = $2 where t.id = $1 and t.node_id is null`,
      [id, writerId],
    );
    return row && { place: placeOf(row), author: authorOf(row), members: row.members, messageId: row.message_id };
  }

  async addMessage(message: {
    id: number;
    topicId: number;
    userId: number;
    body: string;
    bodyHtml: string;
    at: Date;
  }): Promise<void> {
    const reply = Reply.write(message, message.at);
    reply.id = message.id;
    await this.staged.replies([reply]);
    // Its author has read the conversation up to it (their mark moves, never back).
    await this.staged.writersMarks([{ userId: message.userId, topicId: message.topicId, replyId: message.id }]);
  }

  async add(id: number, added: Named, addedById: number, at: Date): Promise<void> {
    await this.sql.all(
      `with users_named as (
         insert into conversation_participants as cp (topic_id, user_id, added_by_id, created_at)
         select $1, named, $2, $3 from unnest($4::int[]) named
         on conflict (topic_id, user_id) where user_id is not null
           do update set left_at = null, added_by_id = excluded.added_by_id, created_at = excluded.created_at)
       insert into conversation_participants (topic_id, group_id, added_by_id, created_at)
       select $1, named, $2, $3 from unnest($5::int[]) named
       on conflict (topic_id, group_id) where group_id is not null do nothing`,
      [id, addedById, at, added.userIds, added.groupIds],
    );
  }

  async leave(id: number, userId: number, at: Date): Promise<void> {
    await this.sql.all(
      `insert into conversation_participants as cp (topic_id, user_id, created_at, left_at) values ($1, $2, $3, $3)
       on conflict (topic_id, user_id) where user_id is not null do update set left_at = excluded.left_at`,
      [id, userId, at],
    );
  }
}
