import type { Viewer } from '../../../domain/users/role.js';
import type {
  SearchDocument,
  SearchIndex,
  SearchQuery,
  SearchReadModel,
  SearchResults,
  SearchSource,
  SearchSourceKind,
} from '../../../application/search/ports.js';
import type { Sql } from '../database/sql.js';
import { SIGNED_OUT, type SqlReader, countedReply, countedTopic, forumTopic, readerOf } from '../read-models/visibility.js';
import type { StagedRows } from '../staged/staged-rows.js';
import { REPLY_COLUMNS, type ReplyRow, type TopicRow, replyView, topicColumns, topicView } from '../read-models/rows.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

/**
 * PostgreSQL full-text search over `search_documents` (migration 20261124010000). The words arrive cut by the
 * service; the `english` configuration stems them (CJK words pass through it unchanged). The configuration is
 * named in every statement, never taken from the session's default.
 */

export class SqlSearchIndex implements SearchIndex {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  /** In a unit of work, the documents wait for its end, with its other rows (staged-rows.ts). */
  put(documents: readonly SearchDocument[]): Promise<void> {
    return this.staged.documents(documents);
  }

  /** What counts, in the forum: a conversation's messages are no search's (contract §24), so never indexed. */
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
           from topics t where t.id > $1 and ${countedTopic('t')} order by t.id limit $2`
        : `select r.topic_id, r.id as reply_id, null as title, r.body_html, r.created_at, r.updated_at
           from replies r join topics t on t.id = r.topic_id
           where r.id > $1 and ${countedReply('r')} and ${forumTopic('t')} order by r.id limit $2`,
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

  async refreshStatistics(): Promise<void> {
    // A role that does not own the table gets a warning and no statistics: run forumctl as the service does.
    await this.sql.all('analyze search_documents');
  }

  async countSources(kind: SearchSourceKind): Promise<number> {
    const row = await this.sql.one<{ n: number }>(
      kind === 'topics'
        ? `select count(*)::int as n from topics t where ${countedTopic('t')}`
        : `select count(*)::int as n from replies r join topics t on t.id = r.topic_id
           where ${countedReply('r')} and ${forumTopic('t')}`,
    );
    return row!.n;
  }
}

export interface Windows {
  /** The most matches a branch collects: at least the page's offset + limit. */
  matches: number;
  /** How many matches the words' index gives before the word counts as common. */
  few: number;
  /** How many of the newest documents a walk reads: first, then (a common word) further. */
  near: Walk;
  far: Walk;
}

export interface Walk {
  titles: number;
  documents: number;
}

/**
 * The walks and bounds for a page that needs `wanted` matches. The first walk is the same for every page: it
 * fills the first with a word found in one topic title in 50 or one document in 200, and costs a millisecond
 * or two for a word it does not fill (deeper pages of a common word take the further walk). The rest grows with
 * the page, rounded up to a power of two times the first page's.
 */
export function walkWindows(wanted: number): Windows {
  const scale = 2 ** Math.max(0, Math.ceil(Math.log2(wanted / 20)));
  return {
    matches: 20 * scale,
    few: Math.max(1_000, 50 * scale),
    near: { titles: 1_000, documents: 4_000 },
    far: { titles: Math.min(32_000 * scale, 256_000), documents: Math.min(128_000 * scale, 2_000_000) },
  };
}

/**
 * A page of results, best first: topics whose title matches, then every other match (bodies of topics,
 * replies), newest first within each; each with its topic, its reply and the query's stems (for the marks).
 * The page's matches come from `search_page` (PL/pgSQL, search-functions.ts), where each branch wants the
 * newest `offset + limit` visible matches. A walk through the newest documents in `created_at` order (an
 * index-only scan of an index carrying the words) is exact as soon as it has that many: every document outside
 * it is older than all inside it. So a branch
 * 1. walks the newest few thousand documents: a common word fills a page within a few hundred;
 * 2. when that comes up short, asks the GIN index for at most `few` matches: a rare word has fewer, and these
 *    are all of them, sorted (skipped for a word the statistics call common: the GIN index cannot stop early,
 *    and for a common word it would build the bitmap of all its matches, 133 ms at a million topics);
 * 3. a common word the newest documents lack (it was in fashion last year), or a deep page, walks further;
 * 4. and only when even that comes up short, collects every match from the GIN index.
 * Each step runs only when the one before it came up short, and the other branch only when title matches do not
 * fill the page. $1 viewer, $2 the query's words, $3 offset, $4 limit, $5 type, $6–$11 the windows.
 */
function searchStatement(viewer: SqlReader): string {
  return `
  select ${topicColumns(viewer)}, d.text, case when h.reply_id is null and d.text is null then t.body_html end as body_html,
    h.title_match,
    (select to_json(x) from (select ${REPLY_COLUMNS} from replies r join users u on u.id = r.user_id where r.id = h.reply_id) x)
      as reply,
    (select tsvector_to_array(to_tsvector('english', $2))) as lexemes
  from search_page($2, $1, $5, $3, $4, $6, $7, $8, $9, $10, $11)
         with ordinality h(topic_id, reply_id, created_at, title_match, position)
    join topics t on t.id = h.topic_id join users u on u.id = t.user_id join nodes n on n.id = t.node_id
    -- the match's text for the excerpt (null for a document indexed before documents kept it), by the unique
    -- indexes; read once a row (offset 0 keeps the planner from copying the look-up into each use of d.text)
    cross join lateral (select case when h.reply_id is null
        then (select s.text from search_documents s where s.topic_id = h.topic_id and s.reply_id is null)
        else (select s.text from search_documents s where s.reply_id = h.reply_id) end as text offset 0) d
  order by h.position`;
}

/** The statement for a user, and for the signed-out (whose plan has no author's check to make). */
const STATEMENTS = { user: searchStatement(readerOf('$1')), signedOut: searchStatement(SIGNED_OUT) };

/** The statement that finds a page of results, and its values. */
export function searchStatementFor(
  query: SearchQuery,
  viewer: { id: number } | null,
  windows: Windows = walkWindows(query.offset + query.limit),
): { text: string; values: unknown[] } {
  const { near, far } = windows;
  return {
    text: viewer ? STATEMENTS.user : STATEMENTS.signedOut,
    values: [
      viewer?.id ?? null,
      query.words,
      query.offset,
      query.limit,
      query.type,
      near.titles,
      near.documents,
      far.titles,
      far.documents,
      windows.few,
      windows.matches,
    ],
  };
}

type HitRow = TopicRow & {
  text: string | null;
  body_html: string | null;
  title_match: boolean;
  reply: ReplyRow | null;
  lexemes: string[];
};

export class SqlSearchReadModel implements SearchReadModel {
  constructor(
    private readonly sql: Sql,
    /** Tests narrow the windows to take the index's way with a handful of documents. */
    private readonly windows: (wanted: number) => Windows = walkWindows,
  ) {}

  async find(query: SearchQuery, viewer: Viewer | null): Promise<SearchResults> {
    const { text, values } = searchStatementFor(query, viewer, this.windows(query.offset + query.limit));
    const rows = await this.sql.all<HitRow>(text, values);
    return {
      lexemes: rows[0]?.lexemes ?? [],
      hits: rows.map((row) => {
        const reply = row.reply ? replyView(row.reply) : null;
        const body = row.text !== null ? { text: row.text } : { html: reply ? reply.bodyHtml : row.body_html! };
        return { topic: topicView(row), reply, body, titleMatched: row.title_match };
      }),
    };
  }
}
