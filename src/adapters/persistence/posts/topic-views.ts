import type { CallerRef, Identified } from '../../../application/actor.js';
import type { TopicShowing } from '../../../application/read-models.js';
import type { TopicViews } from '../../../application/topics/show-topic.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { Sql } from '../database/sql.js';
import { VIEWER_CTE, callerParams } from '../read-models/callers.js';
import { type ShowingRow, showing, showingOf } from '../read-models/topics.js';
import { FORGOTTEN, belowHorizon } from '../read-models/read-state.js';
import { VIEWER_CTE_READER, topicCondition } from '../read-models/visibility.js';

/**
 * A view of a topic, counted and shown in one statement (the most frequent signed-in request; a read and then a
 * write would cost it a quarter of its throughput, measured): the caller found by their token, the hit added if
 * they may open the topic (READERS.post), the topic opened by them (contract §22: a mark with no reply read yet,
 * written the first time only, and not below their horizon, where it reads as opened already), and the topic as it then is, with their meta, returned by the update.
 */
export class SqlTopicViews implements TopicViews {
  constructor(private readonly sql: Sql) {}

  async count(id: number, caller: CallerRef): Promise<Identified<TopicShowing | null>> {
    const rows = await this.sql.all<ShowingRow>(
      `with ${VIEWER_CTE},
       viewed as (update topics set hits = hits + 1
                  where id = $6 and ${topicCondition(READERS.post, VIEWER_CTE_READER, { topic: 'topics' })} returning *),
       opened as (insert into topic_reads (user_id, topic_id) select v.id, t.id from viewer v, viewed t
                  where not ${belowHorizon('v.id', 't.id')} on conflict (user_id, topic_id) do nothing),
       reopened as (update topic_reads tr set last_read_reply_id = null from viewer v, viewed t
                    where tr.user_id = v.id and tr.topic_id = t.id and tr.last_read_reply_id = ${FORGOTTEN})
       ${showingOf('viewed t', 'true')}`,
      [...callerParams(caller), id],
    );
    return showing(rows[0]!);
  }
}
