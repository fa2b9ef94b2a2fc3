import { FORWARD } from '../../posts/read-marks.js';
import type { StagedWriter } from '../staged.js';

/**
 * Read marks moved to what their readers just wrote (contract §22: what one writes, one has read): forward only, and
 * nothing written where the mark would not move. A mark is its reader's own row, which only their own requests write.
 */
export const writersMarks: StagedWriter = {
  name: "writers' marks",
  write({ writersMarks: m }, s) {
    if (m.length === 0) return;
    s.cte(
      'writers_marked',
      `insert into topic_reads as tr (user_id, topic_id, last_read_reply_id)
    select * from unnest(${s.column(m, (x) => x.userId, 'int[]')}, ${s.column(m, (x) => x.topicId, 'int[]')},
      ${s.column(m, (x) => x.replyId, 'int[]')}) as m(user_id, topic_id, reply_id)
    where ${s.after()}
    order by 1, 2
    ${FORWARD}`,
    );
    s.locked('writers_marked');
  },
};
