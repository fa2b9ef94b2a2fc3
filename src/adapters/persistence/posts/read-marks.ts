import type { ActingUser } from '../../../application/actor.js';
import type { ReadMarks } from '../../../application/topics/read-state.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import type { Sql } from '../database/sql.js';
import { FORGOTTEN, belowHorizon, horizonMark, maybeUnreadTopics } from '../read-models/read-state.js';
import { readerAs, topicCondition } from '../read-models/visibility.js';

/**
 * A mark moved forward, as every statement that writes one moves it (posts/reply-reading.ts too): a reply further
 * on, or the first opening; never back, and nothing written when it would not move.
 */
export const FORWARD = `on conflict (user_id, topic_id) do update set last_read_reply_id = excluded.last_read_reply_id
  where excluded.last_read_reply_id is not null
    and (tr.last_read_reply_id is null or tr.last_read_reply_id < excluded.last_read_reply_id)`;

/**
 * What makes a write soft state, selected from the CTE `written` (its rows): its transaction, when it wrote, commits
 * without waiting for the disk (PostgreSQL's asynchronous commit, `synchronous_commit` off for that transaction
 * alone). A crash of PostgreSQL may lose the last fraction of a second of such writes, whole transactions, never
 * anything else. For counts a reader makes as they read, marks and hits: waiting for a flush of the log cost a read
 * that moves a mark over half its throughput under load, and a show, whose hit's row waits for it, as much
 * (docs/performance.md).
 */
export const softCommitAfter = (written: string) => `select set_config('synchronous_commit', 'off', true) from ${written}`;

/** A write of marks as soft state (softCommitAfter). */
export const softly = (write: string) => `with written as (${write} returning 1) ${softCommitAfter('written')}`;

/** Marks moved by hand (contract §22), each in one statement, for a reader who may open the topics. */
export class SqlReadMarks implements ReadMarks {
  constructor(private readonly sql: Sql) {}

  async markRead(reader: ActingUser, topicId: number, upTo: number | null): Promise<{ topic: boolean; reply: boolean }> {
    const opened = topicCondition(READERS.post, readerAs(reader, '$1::int'), { topic: 't' });
    const [row] = await this.sql.all<{ topic: boolean; reply: number | null }>(
      `with target as (select t.id from topics t where t.id = $2 and ${opened}),
       last as (select max(r.id) as id from replies r join target on r.topic_id = target.id
                where $3::int is null or r.id = $3::int),
       marked as (insert into topic_reads as tr (user_id, topic_id, last_read_reply_id)
                  select $1::int, target.id, greatest(last.id, ${horizonMark('$1', 'target.id')}) from target, last
                  where $3::int is null or last.id is not null
                  ${FORWARD})
       select exists (select 1 from target) as topic, (select id from last) as reply`,
      [reader.id, topicId, upTo],
    );
    return { topic: row!.topic, reply: upTo === null || row!.reply !== null };
  }

  async open(readerId: number, topicId: number): Promise<void> {
    await this.sql.all(
      softly(`insert into topic_reads as tr (user_id, topic_id) values ($1, $2)
              on conflict (user_id, topic_id) do update set last_read_reply_id = null where tr.last_read_reply_id = ${FORGOTTEN}`),
      [readerId, topicId],
    );
  }

  async forget(reader: ActingUser, topicId: number): Promise<boolean> {
    const opened = topicCondition(READERS.post, readerAs(reader, '$1::int'), { topic: 't' });
    const [row] = await this.sql.all<{ topic: boolean }>(
      `with target as (select t.id from topics t where t.id = $2 and ${opened}),
       forgotten as (delete from topic_reads where user_id = $1 and topic_id in (select id from target)
                     and not ${belowHorizon('$1', '$2')}),
       hidden as (insert into topic_reads as tr (user_id, topic_id, last_read_reply_id)
                  select $1, id, ${FORGOTTEN} from target where ${belowHorizon('$1', '$2')}
                  on conflict (user_id, topic_id) do update set last_read_reply_id = excluded.last_read_reply_id)
       select exists (select 1 from target) as topic`,
      [reader.id, topicId],
    );
    return row!.topic;
  }

  async markAllRead(reader: ActingUser, nodeId: number | null, newSince: Date): Promise<boolean> {
    const as = readerAs(reader, '$1::int');
    // The topics to mark: those the reader opened that may have unread replies (read-state.ts) and the recent ones (one
    // range of the creation index, whose predicate is restated so that it is used), held to the lists' rule for this reader.
    const scope =
      nodeId === null
        ? topicCondition(READERS.topicList, as, { topic: 't', node: 'n' })
        : `t.node_id = $3 and ${topicCondition(READERS.nodeTopics, as, { topic: 't' })}`;
    const [row] = await this.sql.all<{ node: boolean }>(
      `with candidates as (select rs.id from ${maybeUnreadTopics(as)} rs
                           union select t.id from topics t where t.created_at >= $2 and t.deleted_at is null),
       listed as (select t.id, greatest((select max(r.id) from replies r where r.topic_id = t.id), ${horizonMark('$1', 't.id')}) as last
                  from candidates c join topics t on t.id = c.id join nodes n on n.id = t.node_id where ${scope}),
       marked as (insert into topic_reads as tr (user_id, topic_id, last_read_reply_id)
                  select $1::int, id, last from listed ${FORWARD})
       select ${nodeId === null ? 'true' : 'exists (select 1 from nodes where id = $3)'} as node`,
      nodeId === null ? [reader.id, newSince] : [reader.id, newSince, nodeId],
    );
    return row!.node;
  }
}
