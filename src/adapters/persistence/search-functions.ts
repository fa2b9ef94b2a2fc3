/**
 * A search's steps as PL/pgSQL functions (src/adapters/persistence/search.ts says what each step is for). They were
 * one statement of some two hundred plan nodes, whose one-time filters skipped the steps a search did not need;
 * but PostgreSQL sets up and takes down every node of a plan at every execution, run or not: 400 µs of its CPU
 * per search, where a word the newest titles hold needs 150 µs of work (100,000 topics, measured). A function
 * runs only the statements a search reaches, each with a plan of its own, kept for the connection.
 *
 * Plans are generic (`plan_cache_mode`, set on `search_page` for the whole call): the walks' sizes are
 * parameters here, and PostgreSQL would otherwise plan each statement anew for its values at every call. Every
 * statement has one sensible plan whatever the values: a walk reads its index in `created_at` order, a match
 * asks the GIN index.
 *
 * This module is where they are defined: each function's `create or replace` statement, generated from the
 * visibility policy's compiler. They are derived definitions (derived-definitions.ts): every migration run replays
 * them when their text changed, so a change here or in the policy reaches every database with no migration of its
 * own. The type they pass around, `search_hit`, is migration 20261124080000's, which first created them. A change of
 * a function's arguments or result is not a replacement: a migration drops the old function first.
 *
 * A branch is the documents of one kind of match, best first:
 * - `titles`: topics whose title matches;
 * - `topic bodies`: topics whose body matches and title does not;
 * - `replies`: replies whose body matches;
 * - `bodies`: the two before together.
 */
import { READERS } from '../../domain/visibility/visibility.js';
import { readerOf, replyCondition, topicCondition } from './read-models/visibility.js';

interface Branch {
  /** Its documents, as the condition of the index its walk reads. */
  kind: string;
  /** The columns the match reads, besides topic_id and created_at. */
  columns: string;
  replyId: string;
  match: string;
  titleMatch: boolean;
  /** Whether its documents include replies (whose own visibility counts too). */
  replies: boolean;
}

const BRANCHES: Record<string, Branch> = {
  titles: {
    kind: 's.reply_id is null',
    columns: 's.title_vector',
    replyId: 'null::integer',
    match: 'd.title_vector @@ query',
    titleMatch: true,
    replies: false,
  },
  'topic bodies': {
    kind: 's.reply_id is null',
    columns: 's.vector, s.title_vector',
    replyId: 'null::integer',
    match: 'd.vector @@ query and not d.title_vector @@ query',
    titleMatch: false,
    replies: false,
  },
  replies: {
    kind: 's.reply_id is not null',
    columns: 's.vector',
    replyId: 's.reply_id',
    match: 'd.vector @@ query',
    titleMatch: false,
    replies: true,
  },
  bodies: {
    kind: 'true',
    columns: 's.vector, s.title_vector',
    replyId: 's.reply_id',
    match: 'd.vector @@ query and (d.reply_id is not null or not d.title_vector @@ query)',
    titleMatch: false,
    replies: true,
  },
};

/** Who searches: the functions' `viewer` argument (null when signed out; their role is looked up). */
const SEARCHER = readerOf('viewer');

/**
 * Joins documents `d` to what decides whether `viewer` may find them, and keeps those they may: the search reader of
 * the visibility policy (READERS.search), compiled by the one compiler (read-models/visibility.ts). A change to the
 * policy changes this text, and the functions are replayed at the next migration (derived-definitions.ts).
 */
function visible(replies: boolean): string {
  const topic = topicCondition(READERS.search, SEARCHER, { topic: 't', node: 'n' });
  const reply = replies ? `and (d.reply_id is null or (${replyCondition(READERS.search, SEARCHER, 'r')}))` : '';
  return `join topics t on t.id = d.topic_id join nodes n on n.id = t.node_id
        ${replies ? 'left join replies r on r.id = d.reply_id' : ''}
        where ${topic} ${reply}`;
}

/** An if/elsif over the branches, one statement each. */
function byBranch(statement: (branch: Branch) => string): string {
  const cases = Object.entries(BRANCHES).map(
    ([name, branch], i) => `${i === 0 ? 'if' : 'elsif'} branch = '${name}' then
          return query ${statement(branch)};`,
  );
  return `${cases.join('\n        ')}
        else raise exception 'unknown search branch %', branch;
        end if;`;
}

/**
 * Each function's `create or replace function` statement, by name, in the order they were first created (a
 * PL/pgSQL body is only parsed when it is created, so the order is not a dependency).
 */
export const SEARCH_FUNCTIONS = {
  /**
   * Whether the words are, by the statistics of the column (its most common words and the share of documents
   * holding each, kept by ANALYZE), likely in at least this many documents together. Only a guess: a wrong one
   * costs time, never a result, since every later step is exact or falls through to the next. A word the
   * statistics do not list is not likely common. The shares multiply as logarithms (a long query of common
   * words would underflow exp).
   */
  search_words_common: `
      create or replace function search_words_common(statistics text, words text, at_least double precision)
      returns boolean language plpgsql stable as $$
      begin
        return (select coalesce(
                 bool_and(s.share is not null) and sum(ln(s.share)) + ln(greatest(max(s.documents), 1)) >= ln(at_least),
                 false)
        from unnest(tsvector_to_array(to_tsvector('english', words))) q(word)
          left join (select w.word, w.share, c.reltuples * (1 - p.null_frac) as documents
                     from pg_class c
                       join pg_namespace ns on ns.oid = c.relnamespace
                       join pg_stats p on p.schemaname = ns.nspname and p.tablename = c.relname and p.attname = statistics,
                       unnest(p.most_common_elems::text::text[], p.most_common_elem_freqs) w(word, share)
                     where c.oid = 'search_documents'::regclass) s
            on s.word = q.word);
      end $$;`,
  /**
   * Of the documents given, those the viewer may find, newest first, at most `matches`.
   */
  search_visible: `
      create or replace function search_visible(hits search_hit[], viewer integer, matches bigint)
      returns setof search_hit language plpgsql stable as $$
      begin
        return query select d.topic_id, d.reply_id, d.created_at, d.title_match from unnest(hits) d
        ${visible(true)}
        order by d.created_at desc limit matches;
      end $$;`,
  /**
   * Of the newest `walk` documents of the branch, the newest `matches` the viewer may find. The walk reads an
   * index that carries the words, in created_at order (migration 20261124020000), and stops at `matches`.
   */
  search_walk: `
      create or replace function search_walk(branch text, query tsquery, viewer integer, walk bigint, matches bigint)
      returns setof search_hit language plpgsql stable as $$
      begin
        ${byBranch(
          (branch) => `select d.topic_id, d.reply_id, d.created_at, ${branch.titleMatch}
            from (select s.topic_id, ${branch.replyId} as reply_id, s.created_at, ${branch.columns} from search_documents s
                  where ${branch.kind} order by s.created_at desc limit walk) d
            ${visible(branch.replies)} and ${branch.match}
            order by d.created_at desc limit matches`,
        )}
      end $$;`,
  /**
   * The branch's matches from its GIN index (visible or not), at most `most` of them (null: all), in no order.
   */
  search_indexed: `
      create or replace function search_indexed(branch text, query tsquery, most bigint)
      returns setof search_hit language plpgsql stable as $$
      begin
        ${byBranch(
          (branch) => `select d.topic_id, d.reply_id, d.created_at, ${branch.titleMatch}
            from (select s.topic_id, ${branch.replyId} as reply_id, s.created_at, ${branch.columns} from search_documents s
                  where ${branch.kind}) d
            where ${branch.match} limit most`,
        )}
      end $$;`,
  /**
   * The newest `matches` visible matches of a branch, exact when at least `wanted` exist (search.ts: steps 1-4).
   */
  search_branch: `
      create or replace function search_branch(branch text, query tsquery, words text, viewer integer, wanted bigint,
                                    near bigint, far bigint, few bigint, matches bigint, statistics text)
      returns setof search_hit language plpgsql stable as $$
      declare
        hits search_hit[];
      begin
        -- 1. The newest documents: a common word fills the page from a few hundred.
        hits := array(select w from search_walk(branch, query, viewer, near, matches) w);
        if cardinality(hits) >= wanted then return query select * from unnest(hits); return; end if;
        -- 2. Unless the statistics call the words common, at most \`few\` matches from the GIN index: fewer are all.
        if statistics is null or not search_words_common(statistics, words, 4 * few) then
          hits := array(select i from search_indexed(branch, query, few) i);
          if cardinality(hits) < few then return query select * from search_visible(hits, viewer, matches); return; end if;
        end if;
        -- 3. A common word the newest documents lack, or a deep page: a further walk.
        hits := array(select w from search_walk(branch, query, viewer, far, matches) w);
        if cardinality(hits) >= wanted then return query select * from unnest(hits); return; end if;
        -- 4. Every match.
        return query select d.topic_id, d.reply_id, d.created_at, d.title_match from search_indexed(branch, query, null) d
          ${visible(true)}
          order by d.created_at desc limit matches;
      end $$;`,
  /**
   * A page of matches, best first: title matches, then the others, newest first within each. The second branch
   * runs only when the first does not fill the page.
   */
  search_page: `
      create or replace function search_page(words text, viewer integer, search_type text, page_offset integer, page_limit integer,
                                  near_titles bigint, near_documents bigint, far_titles bigint, far_documents bigint,
                                  few bigint, matches bigint)
      returns setof search_hit rows 20 language plpgsql stable set plan_cache_mode = force_generic_plan as $$
      declare
        query tsquery := plainto_tsquery('english', words);
        wanted bigint := page_offset::bigint + page_limit;
        first_branch text := case when search_type = 'reply' then 'replies' else 'titles' end;
        other_branch text := case search_type when 'topic' then 'topic bodies' when 'reply' then null else 'bodies' end;
        best search_hit[];
      begin
        -- Stop words alone ("the") make an empty query.
        if numnode(query) = 0 then return; end if;
        best := array(select h from search_branch(first_branch, query, words, viewer, wanted,
          case when first_branch = 'titles' then near_titles else near_documents end,
          case when first_branch = 'titles' then far_titles else far_documents end,
          few, matches, case when first_branch = 'titles' then 'title_vector' else 'vector' end) h);
        if cardinality(best) >= wanted or other_branch is null then
          return query select * from unnest(best) b order by b.title_match desc, b.created_at desc
            offset page_offset limit page_limit;
          return;
        end if;
        -- The body words' statistics count replies too, nine documents in ten: for topic bodies alone they would
        -- call rare words common.
        return query select * from (
            select * from unnest(best)
            union all
            select * from search_branch(other_branch, query, words, viewer, wanted, near_documents, far_documents,
              few, matches, case when other_branch = 'bodies' then 'vector' end)) b
          order by b.title_match desc, b.created_at desc
          offset page_offset limit page_limit;
      end $$;`,
} as const;

/** Every function's statement, as one script (for a migration to replay them all). */
export const SEARCH_FUNCTIONS_SCRIPT = Object.values(SEARCH_FUNCTIONS).join('\n');
