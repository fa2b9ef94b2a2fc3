import type { Sql } from '../database/sql.js';
import type { SitemapReadModel, SitemapTopic } from '../../../application/read-models.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import { SIGNED_OUT, topicCondition } from './visibility.js';

/**
 * What the sitemap lists (contract §21a): the topics someone signed out finds in the lists (READERS.topicList), by
 * the month they were created, and the active members. Every statement walks `topics_created_idx` (created_at, id;
 * not deleted) by a range or from one end: the months are probed one by one between the first and the last listed
 * topic, each by an `exists` that stops at its first listed topic; a month's file is that month's range. Nothing
 * here reads every topic.
 */

/** A topic `t` (its node `n`) someone signed out finds in the lists. */
const listed = topicCondition(READERS.topicList, SIGNED_OUT, { topic: 't', node: 'n' });

/** The listed topics, over `t` and `n`, from which a statement picks by creation time. */
const LISTED_TOPICS = `topics t join nodes n on n.id = t.node_id where ${listed}`;

const TOPIC_MONTHS = `
  select to_char(m, 'YYYY-MM') as month
  from (select date_trunc('month', (select t.created_at from ${LISTED_TOPICS} order by t.created_at limit 1) at time zone 'UTC')
                 as first,
               date_trunc('month', (select t.created_at from ${LISTED_TOPICS} order by t.created_at desc limit 1) at time zone 'UTC')
                 as last) bounds
  cross join lateral generate_series(bounds.first, bounds.last, interval '1 month') m
  where exists (
    select 1 from ${LISTED_TOPICS}
      and t.created_at >= (m at time zone 'UTC') and t.created_at < ((m + interval '1 month') at time zone 'UTC'))
  order by m`;

const TOPICS_CREATED = `
  select t.id, t.last_active_at from ${LISTED_TOPICS} and t.created_at >= $1 and t.created_at < $2
  order by t.created_at, t.id
  limit $3`;

/** A member `u` whose profile the sitemap lists: active, not blocked, not the built-in moderator. */
const LISTED_MEMBER = `u.state = 'active' and u.role <> 'blocked' and u.login <> 'system'`;

/** The pieces of $1 ids up to the highest id, each probed by its primary key range for one listed member. */
const USER_PIECES = `
  select piece from generate_series(1, ((select max(id) from users) + $1::int - 1) / $1::int) piece
  where exists (select 1 from users u where u.id between (piece - 1) * $1::int + 1 and piece * $1::int and ${LISTED_MEMBER})
  order by piece`;

export class SqlSitemapReadModel implements SitemapReadModel {
  constructor(private readonly sql: Sql) {}

  async topicMonths(): Promise<string[]> {
    const rows = await this.sql.all<{ month: string }>(TOPIC_MONTHS);
    return rows.map((row) => row.month);
  }

  async topicsCreated(from: Date, to: Date, limit: number): Promise<SitemapTopic[]> {
    const rows = await this.sql.all<{ id: number; last_active_at: Timestamp }>(TOPICS_CREATED, [from, to, limit]);
    return rows.map((row) => ({ id: row.id, lastActiveAt: toDate(row.last_active_at) }));
  }

  async userPieces(size: number): Promise<number[]> {
    const rows = await this.sql.all<{ piece: number }>(USER_PIECES, [size]);
    return rows.map((row) => row.piece);
  }

  async userLogins(fromId: number, toId: number): Promise<string[]> {
    const rows = await this.sql.all<{ login: string }>(
      `select login from users u where u.id between $1 and $2 and ${LISTED_MEMBER} order by u.id`,
      [fromId, toId],
    );
    return rows.map((row) => row.login);
  }
}
