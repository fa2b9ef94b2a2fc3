import type { CallerRef, Identified } from '../../../application/actor.js';
import type { TopicShowing } from '../../../application/read-models.js';
import type { TopicViews } from '../../../application/topics/show-topic.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { Sql } from '../database/sql.js';
import { VIEWER_CTE, callerParams } from '../read-models/callers.js';
import { type ShowingRow, showing, showingOf } from '../read-models/topics.js';
import { VIEWER_CTE_READER, topicCondition } from '../read-models/visibility.js';
import { softCommitAfter } from './read-marks.js';

/** The statement, made once (made at each call, its text was compiled and its name hashed at every show). */
const COUNTED_SHOWING = `with ${VIEWER_CTE},
       viewed as (update topics set hits = hits + 1
                  where id = $6 and ${topicCondition(READERS.post, VIEWER_CTE_READER, { topic: 'topics' })} returning *),
       soft as (${softCommitAfter('viewed')})
       select shown.* from (${showingOf('viewed t', 'true')}) shown cross join (select count(*) from soft) written`;

/**
 * A view of a topic, counted and shown in one statement (the most frequent signed-in request; a read and then a
 * write would cost it a quarter of its throughput, measured): the caller found by their token, the hit added if
 * they may open the topic (READERS.post), and the topic as it then is, with their meta and whether they opened it
 * before, returned by the update. Opening it (contract §22) is a statement of its own, made the first time only
 * (ShowTopic): a write to the marks in this one, even one that finds its mark and does nothing, cost every show a
 * tenth of its throughput (docs/performance.md).
 *
 * A hit is soft state, as a read mark is (softCommitAfter): the statement commits without waiting for the disk. Every
 * show of a topic updates its one row, and each waited for the one before it to reach the disk: shows of one topic
 * at once went at the pace of the log's flushes (a crash of PostgreSQL may lose the last fraction of a second of
 * hits; homeland keeps them in Redis).
 */
export class SqlTopicViews implements TopicViews {
  constructor(private readonly sql: Sql) {}

  async count(id: number, caller: CallerRef): Promise<Identified<TopicShowing | null>> {
    const rows = await this.sql.all<ShowingRow>(COUNTED_SHOWING, [...callerParams(caller), id]);
    return showing(rows[0]!);
  }
}
