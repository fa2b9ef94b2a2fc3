import { countedReply } from '../../read-models/visibility.js';
import type { Staged, StagedWriter } from '../staged.js';

const recounted = (staged: Staged) => staged.counters.recounts;
const touched = (staged: Staged) => [
  ...new Set([...staged.counters.added.map((m) => m.topicId), ...recounted(staged), ...staged.counters.hits.keys()]),
];

/**
 * A topic's counters: a new reply moves its count and its last reply (never back to an earlier reply: replies of one
 * topic may commit out of order); a deleted one has the topic recounted (READERS.counted), on a snapshot taken after
 * the topic was locked (`prepare`, in a statement of its own), so that no concurrent reply is missed; a view adds to
 * its hits. Several topics are locked in id order first (`topics_locked`): a lock taken first and then again by the
 * update costs a contended row about a tenth of reply create's throughput, so a single row is left to its update.
 */
export const topicCounters: StagedWriter = {
  name: 'topic counters',
  async prepare(staged, sql) {
    // A recount must not miss a reply committed just before it: lock first, so that the statement's snapshot,
    // taken after, holds every reply that got to the topic before us (later ones wait for our commit).
    if (recounted(staged).length === 0) return;
    if (!sql.inTransaction()) throw new Error('a reply deletion is counted inside a transaction (MikroOrmUnitOfWork)');
    await sql.all('select id from topics where id = any($1::int[]) order by id for no key update', [recounted(staged)]);
  },
  write(staged, s) {
    const { added, recounts, hits } = staged.counters;
    const topics = touched(staged);
    const locked = topics.length > 1 ? 'topics_locked' : null;
    if (locked) {
      s.cte(locked, `select id from topics where id = any(${s.param(topics, 'int[]')}) order by id for no key update`);
    }
    if (added.length > 0) {
      s.cte(
        'added',
        `select distinct on (a.topic_id) a.topic_id, a.reply_id, a.user_id, u.login, a.at,
           count(*) over (partition by a.topic_id) as count
    from unnest(${s.column(added, (x) => x.topicId, 'int[]')}, ${s.column(added, (x) => x.replyId, 'int[]')},
      ${s.column(added, (x) => x.userId, 'int[]')}, ${s.column(added, (x) => x.at, 'timestamptz[]')})
      as a(topic_id, reply_id, user_id, at)
    join users u on u.id = a.user_id
    order by a.topic_id, a.reply_id desc`,
      );
      s.cte(
        'topics_added',
        `update topics t set
      replies_count = t.replies_count + m.count,
      last_reply_id = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.reply_id else t.last_reply_id end,
      last_reply_user_id = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.user_id else t.last_reply_user_id end,
      last_reply_user_login = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.login else t.last_reply_user_login end,
      replied_at = case when t.last_reply_id is null or t.last_reply_id < m.reply_id then m.at else t.replied_at end,
      last_active_at = greatest(t.last_active_at, m.at)
    from added m
    where t.id = m.topic_id and ${s.after(locked)}
    returning t.id`,
      );
      s.locked('topics_added');
    }
    if (recounts.length > 0) {
      s.cte(
        'topics_recounted',
        `update topics t set
      replies_count = (select count(*) from replies r where r.topic_id = t.id and ${countedReply('r')}),
      last_reply_id = last.id, last_reply_user_id = last.user_id, last_reply_user_login = last.login, replied_at = last.created_at
    from unnest(${s.param(recounts, 'int[]')}) as target(id)
    left join lateral (
      select r.id, r.user_id, u.login, r.created_at from replies r join users u on u.id = r.user_id
      where r.topic_id = target.id and ${countedReply('r')}
      order by r.id desc limit 1
    ) last on true
    where t.id = target.id and ${s.after(s.lastLocked === 'topics_added' ? null : locked)}
    returning t.id`,
      );
      s.locked('topics_recounted');
    }
    if (hits.size > 0) {
      const taken = s.lastLocked === 'topics_added' || s.lastLocked === 'topics_recounted';
      s.cte(
        'topics_hit',
        `update topics t set hits = t.hits + m.views
    from unnest(${s.param([...hits.keys()], 'int[]')}, ${s.param([...hits.values()], 'int[]')}) as m(id, views)
    where t.id = m.id and ${s.after(taken ? null : locked)}
    returning t.id`,
      );
      s.locked('topics_hit');
    }
  },
};
