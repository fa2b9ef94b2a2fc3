import type { StagedWriter } from '../staged.js';

/**
 * New replies, first of all (they lock nothing anyone else holds). A reply staged without an id takes the next one
 * from the sequence; the statement returns the ids, in order, and the unit of work gives them to the replies.
 */
export const newReplies: StagedWriter = {
  name: 'new replies',
  write({ replies: r }, s) {
    if (r.length === 0) return;
    s.cte(
      'new_replies',
      `insert into replies (id, topic_id, user_id, body, body_html, action, visibility, likes_count, created_at, updated_at)
    select coalesce(d.id, nextval('replies_id_seq')), d.topic_id, d.user_id, d.body, d.body_html, d.action, d.visibility, 0,
           d.created_at, d.created_at
    from unnest(${s.column(r, (x) => x.id ?? null, 'int[]')}, ${s.column(r, (x) => x.topicId, 'int[]')},
      ${s.column(r, (x) => x.userId, 'int[]')}, ${s.column(r, (x) => x.body, 'text[]')},
      ${s.column(r, (x) => x.bodyHtml, 'text[]')}, ${s.column(r, (x) => x.action, 'text[]')},
      ${s.column(r, (x) => x.visibility, 'text[]')}, ${s.column(r, (x) => x.createdAt, 'timestamptz[]')})
      as d(id, topic_id, user_id, body, body_html, action, visibility, created_at)
    returning id`,
    );
    s.locked('new_replies');
    s.result('reply_ids', '(select array_agg(id order by id) from new_replies)');
  },
};
