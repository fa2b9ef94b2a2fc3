import { Migration } from '@mikro-orm/migrations';

/**
 * A search walks the newest documents for as many as a page takes, and turns to the GIN indexes only when the
 * walk comes up short (src/adapters/persistence/search.ts). Every walk reads an index alone, as narrow as it
 * can be: titles have one carrying only the title's words (13 MB for 100,000 topics, where the topics' words
 * take 98 MB: a walk through it costs a third); topic bodies one carrying both; replies walk the index of all
 * documents (nine in ten are replies), so their own index goes, and with it one index update per reply.
 */
export class Migration20261124020000_search_walks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      drop index search_documents_recent_topics;
      drop index search_documents_recent_replies;
      create index search_documents_recent_topics on search_documents (created_at desc)
        include (topic_id, vector, title_vector) where reply_id is null;
      create index search_documents_recent_titles on search_documents (created_at desc)
        include (topic_id, title_vector) where reply_id is null;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop index search_documents_recent_titles;
      drop index search_documents_recent_topics;
      create index search_documents_recent_topics on search_documents (created_at desc) where reply_id is null;
      create index search_documents_recent_replies on search_documents (created_at desc) where reply_id is not null;
    `);
  }
}
