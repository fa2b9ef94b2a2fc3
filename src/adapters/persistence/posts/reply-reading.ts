import type { CallerRef, Identified } from '../../../application/actor.js';
import type { Page, ReplyPage } from '../../../application/read-models.js';
import type { ReplyReading } from '../../../application/replies/list-replies.js';
import type { Sql } from '../database/sql.js';
import { VIEWER_CTE } from '../read-models/callers.js';
import { REPLY_PAGE_WITH_MARK, type ReplyPageRow, replyPageOf, replyPageParams } from '../read-models/replies.js';
import { FORWARD, softly } from './read-marks.js';

/**
 * A topic's replies read by someone (contract §22): the page as the read model gives it, with the reader's mark read
 * in the same statement (by its key, once); then, only when the page moves the mark forward, the mark moved to the
 * last reply shown, in a statement of its own. A page that would not move it costs no write and no writing node: a
 * write in the page's statement, even one that wrote nothing, cost every reread a fifth of its throughput, and an
 * upsert that finds its row locks it, which is a write (docs/performance.md). The mark is written softly (read-marks.ts);
 * two readings of the same page at once both move it, to the same reply (FORWARD never moves one back).
 */
export class SqlReplyReading implements ReplyReading {
  constructor(private readonly sql: Sql) {}

  async read(topicId: number, page: Page, caller: CallerRef, shown = page.limit): Promise<Identified<ReplyPage | null>> {
    const rows = await this.sql.all<ReplyPageRow>(
      `with ${VIEWER_CTE} ${REPLY_PAGE_WITH_MARK} order by p.id nulls first`,
      replyPageParams(topicId, page, caller),
    );
    const read = replyPageOf(rows);
    const lastShown = read.result?.replies.slice(0, shown).at(-1)?.id;
    const mark = rows[0]?.read_mark;
    if (read.viewer !== null && lastShown !== undefined && mark != null && lastShown > mark) {
      await this.sql.all(
        softly(`insert into topic_reads as tr (user_id, topic_id, last_read_reply_id) values ($1, $2, $3) ${FORWARD}`),
        [read.viewer.id, topicId, lastShown],
      );
    }
    return read;
  }
}
