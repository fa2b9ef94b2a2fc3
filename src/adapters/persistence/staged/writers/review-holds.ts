import type { StagedWriter } from '../staged.js';

/** The review items of held posts (contract §18), opened with the post. */
export const reviewHolds: StagedWriter = {
  name: 'review holds',
  write({ holds: h }, s) {
    if (h.length === 0) return;
    s.cte(
      'held',
      `insert into review_items (kind, target_type, target_id, topic_id, user_id, created_at)
    select 'hold', d.target_type, d.target_id, d.topic_id, d.user_id, d.created_at
    from unnest(${s.column(h, (x) => x.targetType, 'text[]')}, ${s.column(h, (x) => x.targetId, 'int[]')},
      ${s.column(h, (x) => x.topicId, 'int[]')}, ${s.column(h, (x) => x.userId, 'int[]')},
      ${s.column(h, (x) => x.at, 'timestamptz[]')}) as d(target_type, target_id, topic_id, user_id, created_at)`,
    );
  },
};
