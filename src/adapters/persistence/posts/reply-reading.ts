import type { CallerRef, Identified } from '../../../application/actor.js';
import type { Page, ReplyPage } from '../../../application/read-models.js';
import type { ReplyReading } from '../../../application/replies/list-replies.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { Sql } from '../database/sql.js';
import { VIEWER_CTE } from '../read-models/callers.js';
import { readMark } from '../read-models/read-state.js';
import { NODE_OF_TOPIC, REPLY_PAGE, type ReplyPageRow, replyPageOf, replyPageParams } from '../read-models/replies.js';
import { VIEWER, topicCondition } from '../read-models/visibility.js';
import { FORWARD, softCommitAfter } from './read-marks.js';

/**
 * A topic's replies read by someone, in one statement (contract §22): the page as the read model gives it, and the
 * reader's mark moved up to the last reply they are shown, written only when it moves forward (the mark is read in
 * the same statement, by its key). The page is left to the planner to fold into the select: the mark's write works
 * out the shown replies' last from the replies' index instead of from the page (a page read twice was kept whole in
 * memory: it cost a reread of replies a tenth of its throughput, pgbench on the statement).
 *
 * One statement, not a read and then a write: a page that moves its reader's mark (the first reading of a topic,
 * and every one after new replies) would otherwise pay a round trip more. With the mark's write in a statement of its
 * own, rereads gained 8 % and such readings lost 20 % (bench:ab): even a small share of readings that move a mark
 * makes one statement the cheaper. (A show opens its topic once per reader, and shows far more often: it opens in a
 * statement of its own, the first time only: ShowTopic.)
 *
 * A mark is soft state: when one was written, this transaction alone commits without waiting for the disk
 * (`synchronous_commit` off for it; read-marks.ts says why). Two readings of the same page at once both move it, to
 * the same reply (FORWARD never moves one back).
 *
 * The text is made once: made at each call, its conditions were compiled again and its prepared statement's name
 * (a hash of the text) computed again, at every request.
 */
const READ_AND_MARKED = `with ${VIEWER_CTE},
       marked as (insert into topic_reads as tr (user_id, topic_id, last_read_reply_id)
                  select v.id, t.id, s.last from viewer v join topics t on t.id = $6 ${NODE_OF_TOPIC}
                    cross join lateral (select max(x.id) as last from (select r.id from replies r where r.topic_id = t.id
                                                                       order by r.id limit $9 offset $8) x) s
                  where ${topicCondition(READERS.post, VIEWER, { topic: 't', node: 'tn' })}
                    and s.last > coalesce(${readMark('v.id', 't.id')}, 0)
                  ${FORWARD} returning 1),
       soft as (${softCommitAfter('marked')})
       select page.* from (${REPLY_PAGE}) page cross join (select count(*) from soft) written order by page.id nulls first`;

/** A topic's replies read by someone: READ_AND_MARKED. */
export class SqlReplyReading implements ReplyReading {
  constructor(private readonly sql: Sql) {}

  async read(topicId: number, page: Page, caller: CallerRef, shown = page.limit): Promise<Identified<ReplyPage | null>> {
    const rows = await this.sql.all<ReplyPageRow>(READ_AND_MARKED, [...replyPageParams(topicId, page, caller), shown]);
    return replyPageOf(rows);
  }
}
