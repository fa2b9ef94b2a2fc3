import { expect } from 'chai';
import type { AbstractSqlDriver } from '@mikro-orm/postgresql';
import { makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { SEARCH_FUNCTIONS, SEARCH_FUNCTIONS_SCRIPT } from '../../src/adapters/persistence/search/search-functions.js';
import { Migration20261126000000_search_functions_module } from '../../src/adapters/persistence/migrations/Migration20261126000000_search_functions_module.js';

/**
 * The search's PL/pgSQL functions (src/adapters/persistence/search/search-functions.ts), called through SQL on the test
 * database, not through HTTP: that they are what the module says, and what they find for whom.
 */

/** The walks and bounds search.ts gives a first page of 20: near titles, near documents, far titles, far documents, few, matches. */
const FIRST_PAGE = [1_000, 4_000, 32_000, 128_000, 1_000, 20];
/** Walks of one or two documents and an index that counts a word common from one match: every step taken. */
const NARROW = [1, 1, 2, 2, 1, 20];

/** A page of search_page's matches: `title t1` (a title matched), `t1` (the topic's body) or `r1` (a reply). */
async function page(
  words: string,
  viewer: TestUser | null = null,
  options: { type?: 'topic' | 'reply'; offset?: number; limit?: number; windows?: number[] } = {},
): Promise<string[]> {
  const rows = await testEnv().sql<{ topic_id: number; reply_id: number | null; title_match: boolean }>(
    'select topic_id, reply_id, title_match from search_page($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
    [
      words,
      viewer?.id ?? null,
      options.type ?? null,
      options.offset ?? 0,
      options.limit ?? 20,
      ...(options.windows ?? FIRST_PAGE),
    ],
  );
  return rows.map((row) => (row.reply_id === null ? `${row.title_match ? 'title ' : ''}t${row.topic_id}` : `r${row.reply_id}`));
}

/** What the database keeps of each function: its source (the text between its `$$`), one row per function of the name. */
async function storedSources(): Promise<Record<string, string[]>> {
  const sources: Record<string, string[]> = {};
  for (const name of Object.keys(SEARCH_FUNCTIONS)) {
    const rows = await testEnv().sql<{ prosrc: string }>('select prosrc from pg_proc where proname = $1', [name]);
    sources[name] = rows.map((row) => row.prosrc);
  }
  return sources;
}

const moduleSources = () =>
  Object.fromEntries(
    Object.entries(SEARCH_FUNCTIONS).map(([name, statement]) => [
      name,
      [statement.slice(statement.indexOf('$$') + 2, statement.lastIndexOf('$$'))],
    ]),
  );

describe('the search functions, through SQL', () => {
  let alice: TestUser;
  let bob: TestUser;
  let general: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    general = await makeNode('General');
  });

  it('are in a migrated database exactly as search-functions.ts defines them, one function of each name', async () => {
    expect(Object.keys(SEARCH_FUNCTIONS)).to.deep.equal([
      'search_words_common',
      'search_visible',
      'search_walk',
      'search_indexed',
      'search_branch',
      'search_page',
    ]);
    expect(await storedSources()).to.deep.equal(moduleSources());
    // Replayed once more (as a later migration would), they stay as they are.
    await testEnv().sql(SEARCH_FUNCTIONS_SCRIPT);
    expect(await storedSources()).to.deep.equal(moduleSources());
  });

  it('are put back as the module says by migration 20261126000000, over an older definition', async () => {
    const env = testEnv();
    try {
      await env.sql(`create or replace function search_words_common(statistics text, words text, at_least double precision)
        returns boolean language plpgsql stable as $$ begin return true; end $$`);
      expect((await storedSources()).search_words_common).to.deep.equal([' begin return true; end ']);
      const migration = new Migration20261126000000_search_functions_module(
        env.orm.em.getDriver() as AbstractSqlDriver,
        env.orm.config,
      );
      await migration.up();
      for (const query of migration.getQueries()) await env.sql(String(query));
      expect(await storedSources()).to.deep.equal(moduleSources());
    } finally {
      await env.sql(SEARCH_FUNCTIONS_SCRIPT);
    }
  });

  it('find a match (title matches first, then the newest), and miss a word no document holds', async () => {
    const tuning = await makeTopic(alice, general, 'Postgres tuning', 'about indexes');
    const other = await makeTopic(bob, general, 'Other', 'postgres in the body, and indexing');
    const reply = await makeReply(bob, tuning, 'a postgres reply');
    expect(await page('postgres')).to.deep.equal([`title t${tuning}`, `r${reply}`, `t${other}`]);
    // Stemmed: indexing finds indexes.
    expect(await page('indexing')).to.deep.equal([`t${other}`, `t${tuning}`]);
    expect(await page('postgres', null, { type: 'topic' })).to.deep.equal([`title t${tuning}`, `t${other}`]);
    expect(await page('postgres', null, { type: 'reply' })).to.deep.equal([`r${reply}`]);
    expect(await page('postgres', null, { offset: 1, limit: 1 })).to.deep.equal([`r${reply}`]);
    expect(await page('postgres', null, { windows: NARROW })).to.deep.equal([`title t${tuning}`, `r${reply}`, `t${other}`]);
    // Every word must match; a word nowhere, and stop words alone, find nothing.
    expect(await page('postgres tuning')).to.deep.equal([`title t${tuning}`]);
    expect(await page('zebra')).to.deep.equal([]);
    expect(await page('postgres zebra')).to.deep.equal([]);
    expect(await page('the')).to.deep.equal([]);
  });

  it('find a Chinese word in text indexed as words', async () => {
    const database = await makeTopic(alice, general, '求助', '这是一个数据库的问题');
    const weather = await makeTopic(alice, general, '天气', '今天天气很好');
    expect(await page('数据库')).to.deep.equal([`t${database}`]);
    expect(await page('数据库', null, { windows: NARROW })).to.deep.equal([`t${database}`]);
    expect(await page('天气')).to.deep.equal([`title t${weather}`]);
    expect(await page('数据库 天气')).to.deep.equal([]);
    expect(await page('缓存')).to.deep.equal([]);
  });

  it('leave out deleted topics and replies and hidden nodes for everyone, and blocked nodes and users for who blocked them', async () => {
    const env = testEnv();
    const carol = await makeUser('carol');
    const hidden = await makeNode('Secret', { hidden: true });
    const blockedNode = await makeNode('Blocked');
    const mine = await makeTopic(alice, general, 'Mine', 'a needle of my own');
    await makeTopic(alice, hidden, 'Hidden', 'a needle in a hidden node');
    const deleted = await makeTopic(alice, general, 'Deleted', 'a needle deleted');
    const inBlockedNode = await makeTopic(alice, blockedNode, 'Node', 'a needle in a blocked node');
    const byBob = await makeTopic(bob, general, 'Bob', 'a needle by bob');
    const replyByBob = await makeReply(bob, mine, 'a needle in a reply by bob');
    const deletedReply = await makeReply(alice, mine, 'a needle in a deleted reply');
    await env.sql('update topics set deleted_at = now() where id = $1', [deleted]);
    await env.sql('update replies set deleted_at = now() where id = $1', [deletedReply]);
    await env.sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [carol.id, blockedNode]);
    await env.sql('insert into user_blocks (user_id, blocked_user_id) values ($1, $2)', [carol.id, bob.id]);

    const everyone = [`r${replyByBob}`, `t${byBob}`, `t${inBlockedNode}`, `t${mine}`];
    for (const windows of [FIRST_PAGE, NARROW]) {
      expect(await page('needle', null, { windows }), 'signed out').to.deep.equal(everyone);
      expect(await page('needle', alice, { windows }), 'alice').to.deep.equal(everyone);
      expect(await page('needle', carol, { windows }), 'carol, who blocked a node and bob').to.deep.equal([`t${mine}`]);
    }
  });

  it('call words common only when the statistics list them in enough documents', async () => {
    const env = testEnv();
    for (let i = 0; i < 6; i++) await makeTopic(alice, general, `needle ${i}`, `body ${i}`);
    await env.sql('analyze search_documents');
    const common = async (words: string, documents: number) =>
      (await env.sql<{ common: boolean }>("select search_words_common('title_vector', $1, $2) as common", [words, documents]))[0]!
        .common;
    expect(await common('needle', 3)).to.equal(true);
    expect(await common('needle', 1_000)).to.equal(false);
    expect(await common('zzqx', 1)).to.equal(false);
  });
});
