import type { CallerRef, Identified } from '../../../application/actor.js';
import type { Page, ReplyPage } from '../../../application/read-models.js';
import type { ReplyReading } from '../../../application/replies/list-replies.js';
import type { Sql } from '../database/sql.js';
import { VIEWER_CTE } from '../read-models/callers.js';
import { readMark } from '../read-models/read-state.js';
import { REPLY_PAGE, type ReplyPageRow, replyPageOf, replyPageParams } from '../read-models/replies.js';
import { FORWARD } from './read-marks.js';

/**
 * A topic's replies read by someone, in one statement (contract §22): the page as the read model gives it, and the
 * reader's mark moved up to its last reply, written only when it moves forward: the mark is read in the same
 * statement, and a page that would not move it attempts no write at all (an upsert that finds its row locks it, which
 * is a write: it cost a steady reread of a topic half its throughput).
 *
 * A mark is soft state: when one was written, this transaction alone commits without waiting for the disk
 * (PostgreSQL's asynchronous commit, `synchronous_commit` off for it). A crash may lose the last fraction of a second
 * of marks, never anything else; a read of replies that moves a mark would otherwise wait for a flush of the log,
 * which cost it over half its throughput under load (docs/performance.md).
 */
export class SqlReplyReading implements ReplyReading {
  constructor(private readonly sql: Sql) {}

  async read(topicId: number, page: Page, caller: CallerRef, shown = page.limit): Promise<Identified<ReplyPage | null>> {
    const rows = await this.sql.all<ReplyPageRow>(
      `with ${VIEWER_CTE},
       page as (${REPLY_PAGE}),
       seen as (select viewer_id, id from page where viewer_id is not null order by id limit $9),
       marked as (insert into topic_reads as tr (user_id, topic_id, last_read_reply_id)
                  select viewer_id, $6, max(id) from seen group by viewer_id
                  having max(id) > coalesce(${readMark('viewer_id', '$6')}, 0)
                  ${FORWARD} returning 1),
       soft as (select set_config('synchronous_commit', 'off', true) from marked)
       select page.* from page cross join (select count(*) from soft) written order by page.id nulls first`,
      [...replyPageParams(topicId, page, caller), shown],
    );
    return replyPageOf(rows);
  }
}
