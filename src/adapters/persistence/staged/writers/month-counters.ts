import type { StagedWriter } from '../staged.js';

/** Replies per user and month (the active users' list), after the users; never below zero. */
export const monthCounters: StagedWriter = {
  name: 'month counters',
  write({ counters: { months: m } }, s) {
    if (m.length === 0) return;
    s.cte(
      'month_moves',
      `select m.user_id, date_trunc('month', m.at at time zone 'UTC')::date as month, sum(m.delta)::int as delta
    from unnest(${s.column(m, (x) => x.userId, 'int[]')}, ${s.column(m, (x) => x.at, 'timestamptz[]')},
      ${s.column(m, (x) => x.delta, 'int[]')}) as m(user_id, at, delta)
    where ${s.after()}
    group by 1, 2`,
    );
    if (m.some((move) => move.delta > 0)) {
      s.cte(
        'months_added',
        `insert into user_reply_months (user_id, month, replies)
    select user_id, month, delta from month_moves where delta > 0 order by user_id, month
    on conflict (user_id, month) do update set replies = user_reply_months.replies + excluded.replies`,
      );
    }
    if (m.some((move) => move.delta < 0)) {
      s.cte(
        'months_removed',
        `update user_reply_months m set replies = greatest(m.replies + d.delta, 0)
    from month_moves d where m.user_id = d.user_id and m.month = d.month and d.delta < 0`,
      );
    }
  },
};
