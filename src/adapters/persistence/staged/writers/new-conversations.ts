import type { StagedWriter } from '../staged.js';

/**
 * New conversations (contract §24), first of all, like new replies (they lock nothing anyone else holds): each a topic
 * in no node, with its id drawn by the read before, and who is named in it, users and groups, named by its starter.
 */
export const newConversations: StagedWriter = {
  name: 'new conversations',
  write({ conversations: c }, s) {
    if (c.length === 0) return;
    s.cte(
      'new_conversations',
      `insert into topics (id, user_id, node_id, title, body, body_html, last_active_at, created_at, updated_at)
    select d.id, d.user_id, null, d.title, d.body, d.body_html, d.at, d.at, d.at
    from unnest(${s.column(c, (x) => x.id, 'int[]')}, ${s.column(c, (x) => x.userId, 'int[]')},
      ${s.column(c, (x) => x.title, 'text[]')}, ${s.column(c, (x) => x.body, 'text[]')},
      ${s.column(c, (x) => x.bodyHtml, 'text[]')}, ${s.column(c, (x) => x.at, 'timestamptz[]')})
      as d(id, user_id, title, body, body_html, at)
    returning id`,
    );
    const named = (pick: (conversation: (typeof c)[number]) => readonly number[]) =>
      c.flatMap((conversation) => pick(conversation).map((id) => ({ conversation, id })));
    for (const [kind, rows] of [
      ['user', named((x) => x.named.userIds)],
      ['group', named((x) => x.named.groupIds)],
    ] as const) {
      if (rows.length === 0) continue;
      s.cte(
        `new_conversation_${kind}s`,
        `insert into conversation_participants (topic_id, ${kind}_id, added_by_id, created_at)
    select * from unnest(${s.column(rows, (x) => x.conversation.id, 'int[]')}, ${s.column(rows, (x) => x.id, 'int[]')},
      ${s.column(rows, (x) => x.conversation.userId, 'int[]')}, ${s.column(rows, (x) => x.conversation.at, 'timestamptz[]')})`,
      );
    }
    s.locked('new_conversations');
  },
};
