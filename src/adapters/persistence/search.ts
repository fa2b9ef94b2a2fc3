import type { Viewer } from '../../domain/users/role.js';
import type {
  SearchDocument,
  SearchIndex,
  SearchQuery,
  SearchReadModel,
  SearchResults,
  SearchSource,
  SearchSourceKind,
  SearchType,
} from '../../application/search/ports.js';
import type { Sql } from './sql.js';
import { REPLY_COLUMNS, type ReplyRow, TOPIC_COLUMNS, type TopicDetailRow, replyView, topicDetailView } from './read-models.js';
import { type Timestamp, toDate } from './timestamps.js';

/**
 * PostgreSQL full-text search over `search_documents` (migration 20261124010000). The words arrive cut by the
 * service; the `english` configuration stems them (CJK words pass through it unchanged). The configuration is
 * named in every statement, never taken from the session's default.
 */

export class SqlSearchIndex implements SearchIndex {
  constructor(private readonly sql: Sql) {}

  async put(documents: readonly SearchDocument[]): Promise<void> {
    const topics = documents.filter((document) => document.replyId === null);
    const replies = documents.filter((document) => document.replyId !== null);
    // An older version never overwrites a newer one: a reindex batch read before an edit lands after it.
    if (topics.length > 0) {
      await this.sql.all(
        `insert into search_documents (topic_id, reply_id, title_vector, vector, created_at, source_updated_at)
         select d.topic_id, null, to_tsvector('english', d.title), to_tsvector('english', d.title || ' ' || d.body),
                d.created_at, d.updated_at
         from unnest($1::int[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[])
              as d(topic_id, title, body, created_at, updated_at)
         on conflict (topic_id) where reply_id is null do update
           set title_vector = excluded.title_vector, vector = excluded.vector, source_updated_at = excluded.source_updated_at
           where search_documents.source_updated_at <= excluded.source_updated_at`,
        [
          topics.map((d) => d.topicId),
          topics.map((d) => d.title ?? ''),
          topics.map((d) => d.body),
          topics.map((d) => d.createdAt),
          topics.map((d) => d.sourceUpdatedAt),
        ],
      );
    }
    if (replies.length > 0) {
      await this.sql.all(
        `insert into search_documents (topic_id, reply_id, title_vector, vector, created_at, source_updated_at)
         select d.topic_id, d.reply_id, null, to_tsvector('english', d.body), d.created_at, d.updated_at
         from unnest($1::int[], $2::int[], $3::text[], $4::timestamptz[], $5::timestamptz[])
              as d(topic_id, reply_id, body, created_at, updated_at)
         on conflict (reply_id) where reply_id is not null do update
           set vector = excluded.vector, source_updated_at = excluded.source_updated_at
           where search_documents.source_updated_at <= excluded.source_updated_at`,
        [
          replies.map((d) => d.topicId),
          replies.map((d) => d.replyId),
          replies.map((d) => d.body),
          replies.map((d) => d.createdAt),
          replies.map((d) => d.sourceUpdatedAt),
        ],
      );
    }
  }

  async sources(kind: SearchSourceKind, afterId: number, limit: number): Promise<SearchSource[]> {
    const rows = await this.sql.all<{
      topic_id: number;
      reply_id: number | null;
      title: string | null;
      body_html: string;
      created_at: Timestamp;
      updated_at: Timestamp;
    }>(
      kind === 'topics'
        ? `select id as topic_id, null::int as reply_id, title, body_html, created_at, updated_at
           from topics where id > $1 and deleted_at is null order by id limit $2`
        : `select topic_id, id as reply_id, null as title, body_html, created_at, updated_at
           from replies where id > $1 and deleted_at is null and action is null order by id limit $2`,
      [afterId, limit],
    );
    return rows.map((row) => ({
      topicId: row.topic_id,
      replyId: row.reply_id,
      title: row.title,
      bodyHtml: row.body_html,
      createdAt: toDate(row.created_at)!,
      updatedAt: toDate(row.updated_at)!,
    }));
  }

  async countSources(kind: SearchSourceKind): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      kind === 'topics'
        ? 'select count(*)::int as n from topics where deleted_at is null'
        : 'select count(*)::int as n from replies where deleted_at is null and action is null',
    );
    return row!.n;
  }
}

/** Whether the topic `t` (in node `n`) may be found; for a user (`$1`), not in their blocked nodes or by their blocked users. */
function topicVisible(signedIn: boolean): string {
  const visible = 't.deleted_at is null and not n.hidden';
  if (!signedIn) return visible;
  return `${visible}
    and not exists (select 1 from node_blocks b where b.user_id = $1 and b.node_id = t.node_id)
    and not exists (select 1 from user_blocks b where b.user_id = $1 and b.blocked_user_id = t.user_id)`;
}

function replyVisible(signedIn: boolean): string {
  const visible = 'r.deleted_at is null';
  if (!signedIn) return visible;
  return `${visible} and not exists (select 1 from user_blocks b where b.user_id = $1 and b.blocked_user_id = r.user_id)`;
}

/**
 * The matches of one page, best first: topics whose title matches, then every other match (bodies of topics,
 * replies), newest first within each. Each branch takes at most offset + limit rows in the order of an index on
 * `created_at`, so the planner may walk the newest documents and stop early (a common word) or collect the
 * few matches from the GIN index (a rare one). One round trip: the topics' columns, the reply as JSON, and the
 * query's lexemes (for the highlight). $1 viewer, $2 the query's words, $3 offset, $4 limit.
 */
function hitsStatement(type: SearchType | null, signedIn: boolean): string {
  const from = `from search_documents d join topics t on t.id = d.topic_id join nodes n on n.id = t.node_id`;
  // Stop words alone ("the") make an empty query: this one-time filter (an InitPlan) then skips every scan.
  const wordsLeft = "(select numnode(plainto_tsquery('english', $2))) > 0";
  const branch = (titleMatch: boolean, joins: string, where: string) => `(
      select d.topic_id, d.reply_id, d.created_at, ${titleMatch} as title_match
      ${from} ${joins}, plainto_tsquery('english', $2) query
      where ${wordsLeft} and ${where} and ${topicVisible(signedIn)}
      order by d.created_at desc limit $3::int + $4::int)`;
  const branches: string[] = [];
  if (type !== 'reply') branches.push(branch(true, '', 'd.reply_id is null and d.title_vector @@ query'));
  if (type === 'topic') {
    branches.push(branch(false, '', 'd.reply_id is null and d.vector @@ query and not d.title_vector @@ query'));
  } else {
    const kind = type === 'reply' ? 'd.reply_id is not null' : '(d.reply_id is not null or not d.title_vector @@ query)';
    const reply = `(d.reply_id is null or (${replyVisible(signedIn)}))`;
    branches.push(branch(false, 'left join replies r on r.id = d.reply_id', `d.vector @@ query and ${kind} and ${reply}`));
  }
  return `
    with hits as (${branches.join(' union all ')})
    select ${TOPIC_COLUMNS}, t.body, t.body_html, h.title_match,
      (select to_json(x) from (select ${REPLY_COLUMNS} from replies r join users u on u.id = r.user_id where r.id = h.reply_id) x)
        as reply,
      (select tsvector_to_array(to_tsvector('english', $2))) as lexemes
    from (select * from hits order by title_match desc, created_at desc offset $3 limit $4) h
      join topics t on t.id = h.topic_id join users u on u.id = t.user_id join nodes n on n.id = t.node_id
    order by h.title_match desc, h.created_at desc`;
}

const HITS = new Map<string, string>();

function hitsFor(type: SearchType | null, signedIn: boolean): string {
  const key = `${type}:${signedIn}`;
  let statement = HITS.get(key);
  if (!statement) HITS.set(key, (statement = hitsStatement(type, signedIn)));
  return statement;
}

export class SqlSearchReadModel implements SearchReadModel {
  constructor(private readonly sql: Sql) {}

  async find(query: SearchQuery, viewer: Viewer | null): Promise<SearchResults> {
    const rows = await this.sql.all<TopicDetailRow & { title_match: boolean; reply: ReplyRow | null; lexemes: string[] }>(
      hitsFor(query.type, viewer !== null),
      [viewer?.id ?? null, query.words, query.offset, query.limit],
    );
    return {
      lexemes: rows[0]?.lexemes ?? [],
      hits: rows.map((row) => ({
        topic: topicDetailView(row),
        reply: row.reply ? replyView(row.reply) : null,
        titleMatched: row.title_match,
      })),
    };
  }
}
