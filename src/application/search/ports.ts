import type { Viewer } from '../../domain/users/role.js';
import type { ReplyView, TopicView } from '../read-models.js';

export const SEARCH_TYPES = ['topic', 'reply'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/**
 * Text cut into words, for full-text search: Chinese is written without spaces, so a run of Han characters is
 * cut into words by a dictionary (Japanese kana and Korean into overlapping pairs), and the words come back
 * separated by spaces, for PostgreSQL's parser, which splits on spaces and stems Latin words by itself.
 */
export interface WordSegmenter {
  /** For the index: every word a search might ask for (a long word and the shorter words inside it). */
  forIndex(text: string): string;
  /** For a query: the words as a person means them. */
  forQuery(text: string): string;
}
export const WordSegmenter = Symbol.for('WordSegmenter');

/** The text a reader sees in rendered HTML: tags gone, entities decoded, blocks separated by a line break. */
export interface HtmlText {
  plain(html: string): string;
}
export const HtmlText = Symbol.for('HtmlText');

/** One document of the index: a topic (title and body) or a reply (body), its text already cut into words. */
export interface SearchDocument {
  topicId: number;
  /** null for the topic itself. */
  replyId: number | null;
  /** Topics only. */
  title: string | null;
  body: string;
  /** The text a reader sees of the body, on one line: what a result's excerpt is cut from. */
  text: string;
  createdAt: Date;
  /** When the source last changed: an older version never overwrites a newer one (reindexing under writes). */
  sourceUpdatedAt: Date;
}

/** A topic or reply as it is stored, for reindexing. */
export interface SearchSource {
  topicId: number;
  replyId: number | null;
  title: string | null;
  bodyHtml: string;
  createdAt: Date;
  updatedAt: Date;
}

export type SearchSourceKind = 'topics' | 'replies';

/** The search index: written with each change (at the end of its unit of work), and rebuilt in batches. */
export interface SearchIndex {
  put(documents: readonly SearchDocument[]): Promise<void>;
  /** Live (not deleted) topics or replies (not system events) with an id above `afterId`, in id order. */
  sources(kind: SearchSourceKind, afterId: number, limit: number): Promise<SearchSource[]>;
  /** How many sources of that kind `sources` walks through (for progress). */
  countSources(kind: SearchSourceKind): Promise<number>;
  /** Brings the statistics searches plan by up to date (which words are common), after a rebuild. */
  refreshStatistics(): Promise<void>;
}
export const SearchIndex = Symbol.for('SearchIndex');

export interface SearchQuery {
  /** The query, cut into words. */
  words: string;
  type: SearchType | null;
  offset: number;
  limit: number;
}

/** A match: the topic, and the reply when the match is a reply. */
export interface SearchHit {
  topic: TopicView;
  reply: ReplyView | null;
  /**
   * The body that matched (the reply's or the topic's), for the highlight: the text its document keeps, or, for
   * a document indexed before documents kept it, the rendered HTML.
   */
  body: { text: string } | { html: string };
  /** The topic's title matches (ranked above matches in bodies). */
  titleMatched: boolean;
}

export interface SearchResults {
  hits: SearchHit[];
  /** The query's words as the index normalized them (Latin words stemmed, lower case), for the highlight. */
  lexemes: string[];
}

/**
 * Finds what the viewer may see: best first (topics whose title matches, then every other match), newest
 * first within each; never deleted content or content of hidden nodes; for a user, not what their blocked
 * nodes and users wrote.
 */
export interface SearchReadModel {
  find(query: SearchQuery, viewer: Viewer | null): Promise<SearchResults>;
}
export const SearchReadModel = Symbol.for('SearchReadModel');
