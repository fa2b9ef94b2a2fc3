import { Migration } from '@mikro-orm/migrations';

/**
 * Each search document keeps the text a reader sees of its body, on one line, for the excerpts of results
 * (Discourse's `post_search_data.raw_data` does the same): a search then cuts its twenty excerpts from stored
 * text, instead of parsing twenty bodies' HTML back to text on every request, which took a seventh of a
 * search's CPU (docs/performance.md, round seven). Documents indexed before it have none: their excerpts are
 * read from the HTML, as before, until `forumctl search reindex` fills it in. Adding a column without a default
 * rewrites nothing.
 */
export class Migration20261125000000_search_text extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table search_documents add column text text;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table search_documents drop column text;');
  }
}
