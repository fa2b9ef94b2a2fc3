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
import { REPLY_COLUMNS, type ReplyRow, TOPIC_COLUMNS, type TopicRow, replyView, topicView } from './read-models.js';
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

  async refreshStatistics(): Promise<void> {
    // A role that does not own the table gets a warning and no statistics: run forumctl as the service does.
    await this.sql.all('analyze search_documents');
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
 * the page, rounded up to a power of two times the first page's, so that a handful of statement texts serve
 * every page. These numbers are written into the text: as parameters, PostgreSQL would not know them when it
 * plans the statement once for every word, would judge that plan dearer than one made for the word at hand, and
 * plan each search anew (2.3 ms of planning and 2.6 ms of execution, against 0.7 ms: measured).
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

interface Branch {
  /** Which documents: a condition on `reply_id`, the same as one of the `created_at` indexes'. */
  kind: 'reply_id is null' | 'reply_id is not null' | 'true';
  /** The match, on the document's columns (`d`). */
  match: string;
  /** The columns `match` reads. */
  columns: string;
  titleMatch: boolean;
  /** The column whose statistics tell how many documents of the branch hold a word (none: they would mislead). */
  statistics: 'title_vector' | 'vector' | null;
}

/**
 * Whether the query's words are, by PostgreSQL's statistics of `column` (its most common words and the share of
 * documents holding each, kept by ANALYZE), likely in at least `documents` documents together. The GIN index
 * cannot stop early: asking it for `few` matches of a word in half a million documents builds the bitmap of all of
 * them (133 ms at a million topics, measured), which is what step 2 did for a common word the newest documents
 * lack. A likely common word goes straight to the further walk. Only a guess: a wrong one costs time, never a
 * result, since every step after it is exact or falls through to the next. A word the statistics do not list is
 * not likely common. The shares multiply as logarithms (a long query of common words would underflow `exp`).
 * `words`: the parameter holding the query's words; `when`: false makes the guess cheap and false.
 */
export function commonGuess(column: 'title_vector' | 'vector', documents: number, words = '$2', when = 'true'): string {
  return `
      select coalesce(
               bool_and(s.share is not null) and sum(ln(s.share)) + ln(greatest(max(s.documents), 1)) >= ln(${documents}),
               false) as common
      from unnest(tsvector_to_array(to_tsvector('english', ${words}))) q(word)
        left join (select w.word, w.share, c.reltuples * (1 - p.null_frac) as documents
                   from pg_class c
                     join pg_namespace ns on ns.oid = c.relnamespace
                     join pg_stats p on p.schemaname = ns.nspname and p.tablename = c.relname and p.attname = '${column}',
                     unnest(p.most_common_elems::text::text[], p.most_common_elem_freqs) w(word, share)
                   where c.oid = 'search_documents'::regclass) s
          on s.word = q.word
      where ${when}`;
}

/**
 * The matches of one page, best first: topics whose title matches, then every other match (bodies of topics,
 * replies), newest first within each. Each branch wants the newest `offset + limit` visible matches. A walk
 * through the newest documents in `created_at` order (an index-only scan of an index carrying the words) is
 * exact as soon as it has that many: every document outside it is older than all inside it. So a branch
 * 1. walks the newest few thousand documents: a common word fills a page within a few hundred;
 * 2. when that comes up short, asks the GIN index for at most `few` matches: a rare word has fewer, and these
 *    are all of them, sorted (skipped for a word the statistics call common: `commonGuess`);
 * 3. a common word the newest documents lack (it was in fashion last year), or a deep page, walks further;
 * 4. and only when even that comes up short, collects every match from the GIN index.
 * Each step runs only when the one before it came up short (one-time filters on the counts). The plan does not
 * depend on the word, so PostgreSQL plans the statement once per connection (a generic plan) instead of at
 * every search. The other branch runs only when title matches do not fill the page.
 * $1 viewer, $2 the query's words, $3 offset, $4 limit.
 */
export function hitsStatement(type: SearchType | null, signedIn: boolean, windows: Windows): string {
  const wanted = '($3::int + $4::int)';
  // A sub-select is computed once per statement (an InitPlan), not once per document.
  const query = "(select plainto_tsquery('english', $2))";
  // Stop words alone ("the") make an empty query: this one-time filter then skips every scan.
  const wordsLeft = `numnode(${query}) > 0`;
  const titleMatches = `d.title_vector @@ ${query}`;
  const bodyMatches = `d.vector @@ ${query}`;
  const branches: Branch[] = [];
  if (type !== 'reply') {
    branches.push({
      kind: 'reply_id is null',
      match: titleMatches,
      columns: 'title_vector',
      titleMatch: true,
      statistics: 'title_vector',
    });
  }
  if (type === 'topic') {
    const match = `${bodyMatches} and not ${titleMatches}`;
    // The body words' statistics count replies too, nine documents in ten: they would call rare words common.
    branches.push({ kind: 'reply_id is null', match, columns: 'vector, title_vector', titleMatch: false, statistics: null });
  } else if (type === 'reply') {
    branches.push({
      kind: 'reply_id is not null',
      match: bodyMatches,
      columns: 'vector',
      titleMatch: false,
      statistics: 'vector',
    });
  } else {
    const match = `${bodyMatches} and (d.reply_id is not null or not ${titleMatches})`;
    branches.push({ kind: 'true', match, columns: 'vector, title_vector', titleMatch: false, statistics: 'vector' });
  }
  const visible = (replies: boolean) =>
    `join topics t on t.id = d.topic_id join nodes n on n.id = t.node_id
     ${replies ? 'left join replies r on r.id = d.reply_id' : ''}
     where ${topicVisible(signedIn)}${replies ? ` and (d.reply_id is null or (${replyVisible(signedIn)}))` : ''}`;
  const count = (cte: string) => `(select count(*) from ${cte})`;
  const ctes = branches.map(({ kind, match, columns, titleMatch, statistics }, i) => {
    const replies = kind !== 'reply_id is null';
    const b = `b${i}`;
    // Other matches rank below title matches: when those fill the page, this branch reads nothing.
    const needed = i === 0 ? 'true' : `${count('b0')} < ${wanted}`;
    // The topics' index does not carry reply_id (its condition says what it is): naming it would read the table.
    const replyId = replies ? 'reply_id' : 'null::int as reply_id';
    const walk = (window: Walk, when: string) => `
      select d.topic_id, d.reply_id, d.created_at
      from (select topic_id, ${replyId}, created_at, ${columns} from search_documents
            where ${kind} and ${wordsLeft} and ${when}
            order by created_at desc limit ${titleMatch ? window.titles : window.documents}) d
        ${visible(replies)} and ${match}
      order by d.created_at desc limit ${windows.matches}`;
    const indexed = (when: string, limit: string) => `
      select d.topic_id, d.reply_id, d.created_at from search_documents d
      where ${wordsLeft} and ${when} and ${kind.replace('reply_id', 'd.reply_id')} and ${match} ${limit}`;
    const nearShort = `${count(`${b}_near`)} < ${wanted}`;
    // The branch is needed and its first walk came up short: what steps 2–4 start from.
    const short = `${needed} and ${nearShort}`;
    const likelyCommon = statistics ? `(select common from ${b}_guess)` : 'false';
    const common = `(${likelyCommon} or ${count(`${b}_few`)} >= ${windows.few})`;
    // `common` always comes after `short`, so that the guess is made only when the branch gets that far; should
    // PostgreSQL order these one-time filters otherwise, the guess checks `short` itself.
    const reached = `${short} and ${common}`;
    const guess = statistics ? `${b}_guess as materialized (${commonGuess(statistics, 4 * windows.few, '$2', short)}),` : '';
    return `
    ${b}_near as (${walk(windows.near, needed)}),${guess}
    ${b}_few as materialized (${indexed(`${short} and not ${likelyCommon}`, `limit ${windows.few}`)}),
    ${b}_far as (${walk(windows.far, reached)}),
    ${b}_all as materialized (${indexed(`${reached} and ${count(`${b}_far`)} < ${wanted}`, '')}),
    ${b} as (
      select *, ${titleMatch} as title_match from ${b}_near where not (${nearShort})
      union all
      select *, ${titleMatch} from ${b}_far where ${reached} and ${count(`${b}_far`)} >= ${wanted}
      union all
      (select d.*, ${titleMatch}
       from (select * from ${b}_few where ${short} and not ${common} union all select * from ${b}_all) d ${visible(replies)}
       order by d.created_at desc limit ${windows.matches}))`;
  });
  return `
    with ${ctes.join(',')},
    hits as (${branches.map((_, i) => `select * from b${i}`).join(' union all ')})
    select ${TOPIC_COLUMNS}, case when h.reply_id is null then t.body_html end as body_html, h.title_match,
      (select to_json(x) from (select ${REPLY_COLUMNS} from replies r join users u on u.id = r.user_id where r.id = h.reply_id) x)
        as reply,
      (select tsvector_to_array(to_tsvector('english', $2))) as lexemes
    from (select * from hits order by title_match desc, created_at desc offset $3 limit $4) h
      join topics t on t.id = h.topic_id join users u on u.id = t.user_id join nodes n on n.id = t.node_id
    order by h.title_match desc, h.created_at desc`;
}

const HITS = new Map<string, string>();

function hitsFor(type: SearchType | null, signedIn: boolean, windows: Windows): string {
  const key = `${type}:${signedIn}:${JSON.stringify(windows)}`;
  let statement = HITS.get(key);
  if (!statement) HITS.set(key, (statement = hitsStatement(type, signedIn, windows)));
  return statement;
}

type HitRow = TopicRow & { body_html: string | null; title_match: boolean; reply: ReplyRow | null; lexemes: string[] };

export class SqlSearchReadModel implements SearchReadModel {
  constructor(
    private readonly sql: Sql,
    /** Tests narrow the windows to take the index's way with a handful of documents. */
    private readonly windows: (wanted: number) => Windows = walkWindows,
  ) {}

  async find(query: SearchQuery, viewer: Viewer | null): Promise<SearchResults> {
    const windows = this.windows(query.offset + query.limit);
    const params = [viewer?.id ?? null, query.words, query.offset, query.limit];
    const rows = await this.sql.all<HitRow>(hitsFor(query.type, viewer !== null, windows), params);
    return {
      lexemes: rows[0]?.lexemes ?? [],
      hits: rows.map((row) => {
        const reply = row.reply ? replyView(row.reply) : null;
        return { topic: topicView(row), reply, bodyHtml: reply ? reply.bodyHtml : row.body_html!, titleMatched: row.title_match };
      }),
    };
  }
}
