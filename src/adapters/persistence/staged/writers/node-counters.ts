import type { StagedWriter } from '../staged.js';

/** A node's topics count, after the topics; several nodes locked in id order first. Never below zero. */
export const nodeCounters: StagedWriter = {
  name: 'node counters',
  write({ counters: { nodes } }, s) {
    if (nodes.size === 0) return;
    const ids = s.param([...nodes.keys()], 'int[]');
    const locked = nodes.size > 1 ? 'nodes_locked' : null;
    if (locked) s.cte(locked, `select id from nodes where id = any(${ids}) order by id for no key update`);
    s.cte(
      'nodes_counted',
      `update nodes n set topics_count = greatest(n.topics_count + m.delta, 0)
    from unnest(${ids}, ${s.param([...nodes.values()], 'int[]')}) as m(id, delta)
    where n.id = m.id and ${s.after(locked)}
    returning n.id`,
    );
    s.locked('nodes_counted');
  },
};
