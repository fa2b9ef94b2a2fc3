import { Migration } from '@mikro-orm/migrations';

/**
 * A search walks the newest documents for as many as a page takes, and turns to the GIN indexes only when the
 * walk comes up short (src/adapters/persistence/search.ts). Every walk reads an index alone, as narrow as it
 * can be: titles have one carrying only the title's words (13 MB for 100,000 topics, where the topics' words
 * take 98 MB: a walk through it costs a third); topic bodies one carrying both; replies walk the index of all
 * documents (nine in ten are replies), so their own index goes, and with it one index update per reply.
 *
 * JIT compilation goes off for this database: PostgreSQL compiles the plan of any statement it estimates dear,
 * a search for a deep page is one, and compiling took 80 ms where the statement then ran in 36 (measured).
 * Nothing the service runs is long enough to gain from it. Set on the database (not as a connection option,
 * which PgBouncer refuses); where the service's role may not alter its database, it says so and goes on.
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
      do $$ begin
        execute format('alter database %I set jit = off', current_database());
      exception when insufficient_privilege then
        raise notice 'jit stays on: this role may not alter database %', current_database();
      end $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      do $$ begin execute format('alter database %I reset jit', current_database()); end $$;
      drop index search_documents_recent_titles;
      drop index search_documents_recent_topics;
      create index search_documents_recent_topics on search_documents (created_at desc) where reply_id is null;
      create index search_documents_recent_replies on search_documents (created_at desc) where reply_id is not null;
    `);
  }
}
