import { z } from 'zod';
import type { Actor } from '../actor.js';
import { type RawParam, NOT_BLANK_PATTERN, Text, limit, maybe, oneOf, pageParams, readAll } from '../inputs.js';
import type { ReplyView, TopicView } from '../read-models.js';
import { type HighlightPart, highlighter, readerText, resultHighlight } from './highlight.js';
import { type HtmlText, SEARCH_TYPES, type SearchReadModel, type SearchType, type WordSegmenter } from './ports.js';

/** Contract §11: 1 to 50 results a page, 20 by default. */
export const SearchLimit = limit(1, 50, 20);
export const SearchTypeParam = maybe(oneOf(SEARCH_TYPES)).meta({ description: 'topic or reply (both when absent)' });
/** Long enough for any question a person types; a longer one is a paste, not a query. */
export const MAX_QUERY_LENGTH = 200;
export const SearchText = Text.pipe(
  z
    .string()
    .refine((q) => q.trim() !== '', 'must not be blank')
    .refine((q) => q.length <= MAX_QUERY_LENGTH, `must be at most ${MAX_QUERY_LENGTH} characters`),
).meta({
  description: 'What to look for: words in any language (Chinese is cut into words)',
  pattern: NOT_BLANK_PATTERN,
  maxLength: MAX_QUERY_LENGTH,
});
/** The parameters of `GET /search`, as they are read (and documented), in the order they are checked. */
export const SearchParams = z.object({ q: SearchText, type: SearchTypeParam, ...pageParams(SearchLimit).shape });

export interface SearchResult {
  type: SearchType;
  topic: TopicView;
  reply: ReplyView | null;
  highlight: HighlightPart[];
}

/**
 * `GET /search`: topics and replies whose words match every word of the query, best first, with an excerpt
 * that marks what matched. A token only changes what is visible (blocked nodes and users).
 */
export class SearchContent {
  constructor(
    private readonly index: SearchReadModel,
    private readonly segmenter: WordSegmenter,
    private readonly html: HtmlText,
  ) {}

  async execute(
    actor: Actor,
    input: { q?: RawParam; type?: RawParam; offset?: RawParam; limit?: RawParam },
  ): Promise<SearchResult[]> {
    const { q, type = null, ...page } = readAll(SearchParams, input);
    const words = this.segmenter.forQuery(q);
    const { hits, lexemes } = await this.index.find({ words, type, ...page }, actor);
    const highlight = highlighter(lexemes);
    return hits.map(({ topic, reply, body, titleMatched }) => {
      const matchedTitle = titleMatched && !reply ? topic.title : null;
      const text = 'text' in body ? body.text : readerText(this.html, body.html);
      const marked = resultHighlight(highlight, text, matchedTitle);
      return { type: reply ? 'reply' : 'topic', topic, reply, highlight: marked };
    });
  }
}
