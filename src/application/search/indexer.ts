import type { DomainEvent } from '../../domain/events.js';
import type { InTransactionConsumer } from '../events.js';
import { readerText } from './highlight.js';
import type { HtmlText, SearchDocument, SearchIndex, SearchSource, WordSegmenter } from './ports.js';

/** A topic's or reply's words, as the index keeps them: the text a reader sees, cut into words. */
export function searchDocument(source: SearchSource, segmenter: WordSegmenter, html: HtmlText): SearchDocument {
  // Cut into words from the same one-line text: whitespace separates words alike for jieba and PostgreSQL.
  const text = readerText(html, source.bodyHtml);
  return {
    topicId: source.topicId,
    replyId: source.replyId,
    title: source.title === null ? null : segmenter.forIndex(source.title),
    body: segmenter.forIndex(text),
    text,
    createdAt: source.createdAt,
    sourceUpdatedAt: source.updatedAt,
  };
}

/**
 * Keeps the search index in step with topics and replies, in the unit of work of each change: what was just
 * saved is found as soon as it is committed. Deletion, bans, moves and hidden nodes need nothing here: whether a document may be
 * found is decided from its topic, reply and node when searching.
 */
export class SearchIndexer implements InTransactionConsumer {
  constructor(
    private readonly index: SearchIndex,
    private readonly segmenter: WordSegmenter,
    private readonly html: HtmlText,
  ) {}

  async handle(event: DomainEvent): Promise<void> {
    switch (event.type) {
      case 'topic.created':
      case 'topic.updated':
        return this.put({ topicId: event.topicId, replyId: null, title: event.title, ...this.content(event) });
      case 'reply.created':
      case 'reply.updated':
        return this.put({ topicId: event.topicId, replyId: event.replyId, title: null, ...this.content(event) });
    }
  }

  private content(event: { bodyHtml: string; createdAt: Date; at: Date }) {
    return { bodyHtml: event.bodyHtml, createdAt: event.createdAt, updatedAt: event.at };
  }

  private put(source: SearchSource): Promise<void> {
    return this.index.put([searchDocument(source, this.segmenter, this.html)]);
  }
}
