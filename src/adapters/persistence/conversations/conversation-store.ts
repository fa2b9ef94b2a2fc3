import type { Named } from '../../../domain/conversations/conversation.js';
import type { ConversationPlace, ConversationStore, NamedRecipients } from '../../../application/conversations/ports.js';
import type { Visibility } from '../../../domain/shared/post.js';
import type { Sql } from '../database/sql.js';
import { FORWARD } from '../posts/read-marks.js';
import { participantCondition } from '../read-models/visibility.js';

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

/** Conversations kept as topics in no node, their messages as replies, who takes part beside them (contract §24). */
export class SqlConversationStore implements ConversationStore {
  constructor(private readonly sql: Sql) {}

  async recipients(senderId: number, names: readonly string[]): Promise<NamedRecipients> {
    // A login wins over a group of the same name; a hidden group is known only to administrators (§23), so not here.
    const rows = await this.sql.all<{ kind: 'user' | 'group'; id: number; name: string; asked: string; blocked: boolean }>(
      `with asked as (select distinct lower(name) as name from unnest($2::text[]) name),
       named_users as (select u.id, u.login::text as name, asked.name as asked,
                         exists (select 1 from user_blocks b where b.user_id = u.id and b.blocked_user_id = $1) as blocked
                       from asked join users u on lower(u.login) = asked.name)
       select 'user' as kind, id, name, asked, blocked from named_users
       union all
       select 'group', g.id, g.name::text, asked.name, false from asked join groups g on lower(g.name) = asked.name
       where not g.hidden and not exists (select 1 from named_users nu where nu.asked = asked.name)`,
      [senderId, names],
    );
    const found = new Set(rows.map((row) => row.asked));
    return {
      users: rows
        .filter((row) => row.kind === 'user')
        .map((row) => ({ id: row.id, login: row.name, blockedSender: row.blocked })),
      groups: rows.filter((row) => row.kind === 'group').map((row) => ({ id: row.id, name: row.name })),
      unknown: names.filter((name) => !found.has(name.toLowerCase())),
    };
  }

  async start(input: { userId: number; title: string; body: string; bodyHtml: string; named: Named; at: Date }): Promise<number> {
    // The starter has read what they wrote: their mark is there from the start (contract §22).
    const [row] = await this.sql.all<{ id: number }>(
      `with conversation as (
         insert into topics (user_id, node_id, title, body, body_html, last_active_at, created_at, updated_at)
         values ($1, null, $2, $3, $4, $5, $5, $5) returning id),
       users_named as (insert into conversation_participants (topic_id, user_id, added_by_id, created_at)
                       select conversation.id, named, $1, $5 from conversation, unnest($6::int[]) named),
       groups_named as (insert into conversation_participants (topic_id, group_id, added_by_id, created_at)
                        select conversation.id, named, $1, $5 from conversation, unnest($7::int[]) named),
       opened as (insert into topic_reads (user_id, topic_id) select $1, id from conversation)
       select id from conversation`,
      [input.userId, input.title, input.body, input.bodyHtml, input.at, input.named.userIds, input.named.groupIds],
    );
    return row!.id;
  }

  async place(id: number, readerId: number): Promise<ConversationPlace | null> {
    const row = await this.sql.one<PlaceRow>(
      `select t.user_id, t.visibility, t.deleted_at is not null as deleted, t.title,
         array(select user_id from conversation_participants where topic_id = t.id and user_id is not null and left_at is null order by user_id) as user_ids,
         array(select group_id from conversation_participants where topic_id = t.id and group_id is not null order by group_id) as group_ids,
         array(select user_id from conversation_participants where topic_id = t.id and left_at is not null) as left_ids,
         array(select group_id from group_members where user_id = $2) as reader_group_ids
       from topics t where t.id = $1 and t.node_id is null`,
      [id, readerId],
    );
    if (!row) return null;
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

  async addMessage(topicId: number, message: { userId: number; body: string; bodyHtml: string; at: Date }): Promise<number> {
    // Its author has read the conversation up to it (their mark moves, never back).
    const [row] = await this.sql.all<{ id: number }>(
      `with message as (
         insert into replies (topic_id, user_id, body, body_html, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $5) returning id),
       counted as (
         update topics set replies_count = replies_count + 1, last_reply_id = message.id, last_reply_user_id = $2,
           last_reply_user_login = (select login from users where id = $2), replied_at = $5, last_active_at = $5
         from message where topics.id = $1),
       marked as (insert into topic_reads as tr (user_id, topic_id, last_read_reply_id) select $2, $1, id from message ${FORWARD})
       select id from message`,
      [topicId, message.userId, message.body, message.bodyHtml, message.at],
    );
    return row!.id;
  }

  async audience(id: number, exceptUserId: number): Promise<number[]> {
    // Everyone ever named or in a group named, held to the policy's own condition of who takes part (participantCondition).
    const rows = await this.sql.all<{ id: number }>(
      `with candidates as (
         select user_id as id from conversation_participants where topic_id = $1 and user_id is not null
         union
         select gm.user_id from conversation_participants cp join group_members gm on gm.group_id = cp.group_id
         where cp.topic_id = $1)
       select c.id from candidates c join topics t on t.id = $1
       where c.id <> $2 and ${participantCondition('c.id', 't')} order by c.id`,
      [id, exceptUserId],
    );
    return rows.map((row) => row.id);
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
