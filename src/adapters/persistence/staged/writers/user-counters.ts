import type { StagedWriter } from '../staged.js';

/** A user's counters (topics, replies, favorites, followers, following), after the nodes; never below zero. */
export const userCounters: StagedWriter = {
  name: 'user counters',
  write({ counters: { users } }, s) {
    if (users.size === 0) return;
    const rows = [...users];
    const ids = s.column(rows, ([id]) => id, 'int[]');
    const locked = rows.length > 1 ? 'users_locked' : null;
    if (locked) s.cte(locked, `select id from users where id = any(${ids}) order by id for no key update`);
    s.cte(
      'users_counted',
      `update users u set
      topics_count = greatest(u.topics_count + m.topics, 0),
      replies_count = greatest(u.replies_count + m.replies, 0),
      favorites_count = greatest(u.favorites_count + m.favorites, 0),
      followers_count = greatest(u.followers_count + m.followers, 0),
      following_count = greatest(u.following_count + m.following, 0)
    from unnest(${ids}, ${s.column(rows, ([, c]) => c.topicsCount, 'int[]')},
      ${s.column(rows, ([, c]) => c.repliesCount, 'int[]')}, ${s.column(rows, ([, c]) => c.favoritesCount, 'int[]')},
      ${s.column(rows, ([, c]) => c.followersCount, 'int[]')}, ${s.column(rows, ([, c]) => c.followingCount, 'int[]')})
      as m(id, topics, replies, favorites, followers, following)
    where u.id = m.id and ${s.after(locked)}
    returning u.id`,
    );
    s.locked('users_counted');
  },
};
