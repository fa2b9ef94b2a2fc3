import { Migration } from '@mikro-orm/migrations';
import { SEARCH_FUNCTIONS_SCRIPT } from '../search/search-functions.js';

/**
 * The search's functions as search-functions.ts defines them, replayed with `create or replace`: from here on that
 * module, not a migration's text, says what they are. Migration 20261124080000 created them with the same
 * statements, so on a database that ran it this changes nothing; and a fresh database ends, whatever an earlier
 * migration said, with the module's version.
 */
export class Migration20261126000000_search_functions_module extends Migration {
  override async up(): Promise<void> {
    this.addSql(SEARCH_FUNCTIONS_SCRIPT);
  }

  override async down(): Promise<void> {
    // Nothing to undo: the functions were there before, as migration 20261124080000 created them (its down drops
    // them).
  }
}
