import { searchDocument } from './indexer.js';
import type { HtmlText, SearchIndex, SearchSourceKind, WordSegmenter } from './ports.js';

export const REINDEX_BATCH = 1_000;

/**
 * Rebuilds the search index from the topics and replies, in batches of `batchSize` in id order, each batch its
 * own short statement: safe while the service serves. A document edited between the read and the write of its
 * batch keeps the newer words (the index never takes an older version over a newer one).
 */
export class ReindexSearch {
  constructor(
    private readonly index: SearchIndex,
    private readonly segmenter: WordSegmenter,
    private readonly html: HtmlText,
  ) {}

  async execute(
    options: { batchSize?: number } = {},
    onProgress: (kind: SearchSourceKind, done: number, total: number) => void = () => undefined,
  ): Promise<Record<SearchSourceKind, number>> {
    const batchSize = options.batchSize ?? REINDEX_BATCH;
    const indexed: Record<SearchSourceKind, number> = { topics: 0, replies: 0 };
    for (const kind of ['topics', 'replies'] as const) {
      const total = await this.index.countSources(kind);
      onProgress(kind, 0, total);
      for (let afterId = 0; ;) {
        const sources = await this.index.sources(kind, afterId, batchSize);
        if (sources.length === 0) break;
        await this.index.put(sources.map((source) => searchDocument(source, this.segmenter, this.html)));
        indexed[kind] += sources.length;
        afterId = kind === 'topics' ? sources.at(-1)!.topicId : sources.at(-1)!.replyId!;
        onProgress(kind, Math.min(indexed[kind], total), total);
      }
    }
    await this.index.refreshStatistics();
    return indexed;
  }
}
