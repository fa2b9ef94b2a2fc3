import { ContainerModule } from 'inversify';
import { SearchIndexer } from '../application/search/indexer.js';
import { HtmlText, SearchIndex, SearchReadModel, WordSegmenter } from '../application/search/ports.js';
import { ReindexSearch } from '../application/search/reindex.js';
import { SearchContent } from '../application/search/search.js';
import { SqlSearchIndex, SqlSearchReadModel } from '../adapters/persistence/search/search.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { StagedRows } from '../adapters/persistence/staged/staged-rows.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Search (contract §11): the index (kept by a consumer of the domain events), searching, reindexing. */
export const searchModule = new ContainerModule(({ bind }) => {
  provide(bind, SearchIndex, (sql: Sql, staged: StagedRows) => new SqlSearchIndex(sql, staged), [SqlRunner, StagedRows]);
  provide(bind, SearchReadModel, (sql: Sql) => new SqlSearchReadModel(sql), [SqlRunner]);
  provide(
    bind,
    SearchIndexer,
    (index: SearchIndex, segmenter: WordSegmenter, html: HtmlText) => new SearchIndexer(index, segmenter, html),
    [SearchIndex, WordSegmenter, HtmlText],
  );

  const useCase = useCaseBinder(bind);
  useCase(SearchContent, [SearchReadModel, WordSegmenter, HtmlText]);
  useCase(ReindexSearch, [SearchIndex, WordSegmenter, HtmlText]);
});
