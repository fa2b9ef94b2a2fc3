import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';
import { SqlSearchIndex, SqlSearchReadModel, walkWindows } from '../../src/adapters/persistence/search.js';
import { StagedRows } from '../../src/adapters/persistence/staged/staged-rows.js';

/**
 * Search (contract §11) on real PostgreSQL, with Chinese, English, Japanese, Korean and mixed text: what is
 * found, in which order, with which highlight, and what is never found.
 */

interface Result {
  type: 'Topic' | 'Reply';
  topic: { id: number; title: string };
  reply?: { id: number; body: string };
  highlight: string;
}

async function search(query: Record<string, string | number>, user?: TestUser): Promise<Result[]> {
  const request = api().get('/api/v3/search').query(query);
  if (user) request.set(user.auth);
  return (await request.expect(200)).body.results as Result[];
}

const ids = (results: Result[]) =>
  results.map((result) => (result.type === 'Reply' ? `r${result.reply!.id}` : `t${result.topic.id}`));

/** Only <mark> tags: every other `<` is escaped. */
function onlyMarkTags(highlight: string): boolean {
  return !/<(?!\/?mark>)/.test(highlight);
}

describe('GET /api/v3/search', () => {
  let alice: TestUser;
  let bob: TestUser;
  let node: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    node = await makeNode('General');
  });

  it('finds Chinese by its words: 数据库 finds 这是一个数据库的问题, and marks it', async () => {
    const topic = await makeTopic(alice, node, '求助', '这是一个数据库的问题');
    await makeTopic(alice, node, '天气', '今天天气很好');
    const results = await search({ q: '数据库' });
    expect(ids(results)).to.deep.equal([`t${topic}`]);
    expect(results[0]!.highlight).to.equal('这是一个<mark>数据库</mark>的问题');
    expect(results[0]!.topic).to.include({ id: topic, title: '求助' });
    expect(results[0]).to.not.have.property('reply');
    // A shorter word inside a longer one, and a phrase cut into several words (all must match).
    expect(ids(await search({ q: '数据' }))).to.deep.equal([`t${topic}`]);
    expect(ids(await search({ q: '数据库问题' }))).to.deep.equal([`t${topic}`]);
    expect(await search({ q: '数据库 天气' })).to.deep.equal([]);
  });

  it('matches English by stem: databases finds database, and the highlight marks the word as written', async () => {
    const topic = await makeTopic(alice, node, 'Storage', 'Which database should a forum use?');
    await makeTopic(alice, node, 'Other', 'Nothing to see here');
    const results = await search({ q: 'Databases' });
    expect(ids(results)).to.deep.equal([`t${topic}`]);
    expect(results[0]!.highlight).to.equal('Which <mark>database</mark> should a forum use?');
    expect(ids(await search({ q: 'forums using databases' }))).to.deep.equal([`t${topic}`]);
  });

  it('finds mixed, Japanese and Korean text', async () => {
    const mixed = await makeTopic(alice, node, 'Mixed', '我们用PostgreSQL数据库做全文搜索');
    const japanese = await makeTopic(alice, node, 'Japanese', '東京の天気はどうですか');
    const korean = await makeTopic(alice, node, 'Korean', '한국어 텍스트 검색');
    expect(ids(await search({ q: 'postgresql' }))).to.deep.equal([`t${mixed}`]);
    expect(ids(await search({ q: '数据库 PostgreSQL' }))).to.deep.equal([`t${mixed}`]);
    expect((await search({ q: 'PostgreSQL' }))[0]!.highlight).to.include('<mark>PostgreSQL</mark>');
    expect(ids(await search({ q: '天気' }))).to.deep.equal([`t${japanese}`]);
    expect(ids(await search({ q: 'どうですか' }))).to.deep.equal([`t${japanese}`]);
    const found = await search({ q: '한국어' });
    expect(ids(found)).to.deep.equal([`t${korean}`]);
    expect(found[0]!.highlight).to.include('<mark>한국어</mark>');
  });

  it('ranks title matches first, then the other matches newest first; type narrows to topics or replies', async () => {
    const inTitle = await makeTopic(alice, node, 'Caching strategies', 'How do you do it?');
    const older = await makeTopic(alice, node, 'Question', 'We need caching here');
    const reply = await makeReply(bob, older, 'Caching with PostgreSQL works');
    const newer = await makeTopic(bob, node, 'Another', 'More caching talk');
    const all = await search({ q: 'caching' });
    expect(ids(all)).to.deep.equal([`t${inTitle}`, `t${newer}`, `r${reply}`, `t${older}`]);
    const replyResult = all[2]!;
    expect(replyResult.type).to.equal('Reply');
    expect(replyResult.topic.id).to.equal(older);
    expect(replyResult.reply).to.include({ id: reply, body: 'Caching with PostgreSQL works' });
    expect(replyResult.highlight).to.equal('<mark>Caching</mark> with PostgreSQL works');
    // A title-only match highlights the title.
    await makeTopic(alice, node, 'Sharding notes', 'Nothing else');
    expect((await search({ q: 'sharding' }))[0]!.highlight).to.equal('<mark>Sharding</mark> notes');

    expect(ids(await search({ q: 'caching', type: 'topic' }))).to.deep.equal([`t${inTitle}`, `t${newer}`, `t${older}`]);
    expect(ids(await search({ q: 'caching', type: 'reply' }))).to.deep.equal([`r${reply}`]);
    expect(ids(await search({ q: 'caching', offset: 1, limit: 2 }))).to.deep.equal([`t${newer}`, `r${reply}`]);
    expect(ids(await search({ q: 'caching', offset: 4 }))).to.deep.equal([]);
  });

  it('finds what was just saved, and after an edit finds the new words and not the old', async () => {
    const topic = await makeTopic(alice, node, 'Draft', 'first version about apples');
    expect(ids(await search({ q: 'apples' }))).to.deep.equal([`t${topic}`]);
    await api()
      .post(`/api/v3/topics/${topic}`)
      .set(alice.auth)
      .send({ title: 'Draft', body: 'second version about 苹果', node_id: node })
      .expect(200);
    expect(await search({ q: 'apples' })).to.deep.equal([]);
    const [edited] = await search({ q: '苹果' });
    expect(ids([edited!])).to.deep.equal([`t${topic}`]);
    expect(edited!.highlight).to.equal('second version about <mark>苹果</mark>');

    const reply = await makeReply(bob, topic, 'I like pears');
    expect(ids(await search({ q: 'pears' }))).to.deep.equal([`r${reply}`]);
    await api().post(`/api/v3/replies/${reply}`).set(bob.auth).send({ body: 'I like plums' }).expect(200);
    expect(await search({ q: 'pears' })).to.deep.equal([]);
    const [editedReply] = await search({ q: 'plums' });
    expect(ids([editedReply!])).to.deep.equal([`r${reply}`]);
    expect(editedReply!.highlight).to.equal('I like <mark>plums</mark>');
  });

  it('cuts excerpts from the text each document keeps, on one line; a document without it, from the HTML', async () => {
    const topic = await makeTopic(alice, node, 'Fruit', 'First about **kiwis**  &amp; figs.\n\n- one\n- two kiwis');
    const reply = await makeReply(bob, topic, '> quoted\n\nkiwis &lt;again&gt;');
    const env = testEnv();
    const kept = () =>
      env.sql<{ reply_id: number | null; text: string | null }>(
        'select reply_id, text from search_documents where topic_id = $1 order by reply_id nulls first',
        [topic],
      );
    expect(await kept()).to.deep.equal([
      { reply_id: null, text: 'First about kiwis & figs. one two kiwis' },
      { reply_id: reply, text: 'quoted kiwis <again>' },
    ]);
    const highlights = async () => (await search({ q: 'kiwis' })).map((result) => `${ids([result])[0]} ${result.highlight}`);
    const expected = [
      `r${reply} quoted <mark>kiwis</mark> &lt;again&gt;`,
      `t${topic} First about <mark>kiwis</mark> &amp; figs. one two <mark>kiwis</mark>`,
    ];
    expect(await highlights()).to.deep.equal(expected);
    // The excerpt is cut from the kept text, not from the HTML.
    await env.sql(`update search_documents set text = 'kept kiwis, not parsed' where reply_id = $1`, [reply]);
    expect((await highlights())[0]).to.equal(`r${reply} kept <mark>kiwis</mark>, not parsed`);

    // Documents indexed before documents kept their text: the same excerpts, from the HTML; a reindex fills it in.
    await env.sql('update search_documents set text = null where topic_id = $1', [topic]);
    expect(await highlights()).to.deep.equal(expected);
    expect((await forumctl(['search', 'reindex'])).code).to.equal(0);
    expect((await kept()).map((row) => row.text)).to.deep.equal([
      'First about kiwis & figs. one two kiwis',
      'quoted kiwis <again>',
    ]);
  });

  it('never finds deleted topics and replies, banned topics, or hidden nodes, whoever asks', async () => {
    const admin = await makeUser('root', 'admin');
    const hidden = await makeNode('Secret', { hidden: true });
    const deleted = await makeTopic(alice, node, 'Gone', 'vanishing topic');
    await makeReply(alice, deleted, 'vanishing reply of a deleted topic');
    const kept = await makeTopic(alice, node, 'Kept', 'a topic that stays');
    const deletedReply = await makeReply(bob, kept, 'vanishing reply');
    const banned = await makeTopic(bob, node, 'Banned', 'vanishing banned topic');
    await makeTopic(alice, hidden, 'Hidden', 'vanishing in a hidden node');
    const visible = await makeTopic(alice, node, 'Visible', 'vanishing? no, this one stays');
    // Found before: both replies, the topic to delete and the one to ban (never the hidden node's), and the last.
    expect(await search({ q: 'vanishing' })).to.have.length(5);

    await api().delete(`/api/v3/topics/${deleted}`).set(admin.auth).expect(200);
    await api().delete(`/api/v3/replies/${deletedReply}`).set(bob.auth).expect(200);
    await api().post(`/api/v3/topics/${banned}/ban`).set(admin.auth).expect(200);
    for (const viewer of [undefined, alice, admin]) {
      expect(ids(await search({ q: 'vanishing' }, viewer)), viewer?.login).to.deep.equal([`t${visible}`]);
    }
  });

  it('finds the same page by walking the newest documents as by the words index, whichever way a branch goes', async () => {
    // The service walks the newest few thousand documents and turns to the GIN index when the walk comes up
    // short; with a handful of documents only narrowed windows take the index's way, page by page.
    const env = testEnv();
    const other = await makeNode('Other');
    const hidden = await makeNode('Hidden', { hidden: true });
    const admin = await makeUser('root', 'admin');
    const words = ['alpha', 'beta', '数据库', 'gamma'];
    for (let i = 0; i < 14; i++) {
      const author = i % 3 === 0 ? bob : alice;
      const title = `${words[i % 4]} title ${i % 5 === 0 ? 'beta' : ''}`;
      const topic = await makeTopic(author, i % 4 === 3 ? other : node, title, `${words[(i + 1) % 4]} body ${words[i % 2]}`);
      await makeReply(i % 2 ? bob : alice, topic, `${words[(i + 2) % 4]} reply 这是一个数据库的问题`);
      if (i === 5) await api().delete(`/api/v3/topics/${topic}`).set(admin.auth).expect(200);
    }
    await makeTopic(alice, hidden, 'alpha beta gamma', '数据库 alpha beta gamma');
    await api().post(`/api/v3/nodes/${other}/block`).set(alice.auth).expect(200);
    await api().post('/api/v3/users/bob/block').set(alice.auth).expect(200);

    // With statistics, a word they call common skips the GIN index's count (step 2) for the further walk.
    await env.sql('analyze search_documents');
    const guess = async (column: 'title_vector' | 'vector', words: string, documents: number) =>
      (await env.sql<{ common: boolean }>('select search_words_common($1, $2, $3) as common', [column, words, documents]))[0]!
        .common;
    expect(await guess('title_vector', 'title', 4)).to.equal(true);
    expect(await guess('vector', '数据库', 4)).to.equal(true);
    expect(await guess('vector', '数据库 alpha', 4)).to.equal(true);
    expect(await guess('title_vector', 'title', 1_000)).to.equal(false);
    expect(await guess('vector', 'zzqx', 1)).to.equal(false);
    expect(await guess('vector', 'the', 1)).to.equal(false);

    const { sql } = env.persistence;
    const walking = new SqlSearchReadModel(sql);
    // Walks of a few documents, and a GIN index that counts a word common after a few matches: every step taken.
    const narrowed = (wanted: number, size: number) => ({
      ...walkWindows(wanted),
      few: size,
      near: { titles: size, documents: size },
      far: { titles: size * 2, documents: size * 2 },
    });
    // The steps the titles' branch takes (3 wanted, walks of 1 then 2 titles, a word common from 1 match), told by
    // PostgreSQL's counts of the calls of each step's function (those not yet reported: read before and after).
    const steps = (words: string) =>
      env.persistence.orm.em.fork().transactional(async () => {
        await sql.all("select set_config('track_functions', 'pl', true)");
        const calls = async () =>
          (await sql.one<{ walks: number; indexed: number }>(
            `select coalesce(pg_stat_get_xact_function_calls('search_walk'::regproc), 0)::int as walks,
                      coalesce(pg_stat_get_xact_function_calls('search_indexed'::regproc), 0)::int as indexed`,
          ))!;
        const before = await calls();
        await sql.all(
          `select count(*) from search_branch('titles', plainto_tsquery('english', $1), $1, null, 3, 1, 2, 1, 3, 'title_vector')`,
          [words],
        );
        const after = await calls();
        return { walks: after.walks - before.walks, indexed: after.indexed - before.indexed };
      });
    // A word the statistics call common goes from the first walk to the further one; another asks the index.
    expect(await env.scope(() => steps('title'))).to.deep.equal({ walks: 2, indexed: 1 });
    expect(await env.scope(() => steps('zzqx'))).to.deep.equal({ walks: 1, indexed: 1 });
    const models = [1, 2, 3, 5, 7].map((size) => new SqlSearchReadModel(sql, (wanted) => narrowed(wanted, size)));
    const page = async (model: SqlSearchReadModel, query: Parameters<SqlSearchReadModel['find']>[0], viewer: TestUser | null) =>
      (await env.scope(() => model.find(query, viewer && { id: viewer.id, role: 'member' }))).hits.map(
        (hit) => `${hit.titleMatched ? 'title ' : ''}${hit.reply ? `r${hit.reply.id}` : `t${hit.topic.id}`}`,
      );
    let compared = 0;
    for (const words of ['alpha', 'beta', '数据库', 'gamma', 'title', 'alpha 数据库']) {
      for (const type of [null, 'topic', 'reply'] as const) {
        for (const viewer of [null, alice]) {
          for (const [offset, limit] of [
            [0, 3],
            [2, 4],
            [0, 50],
          ] as const) {
            const query = { words, type, offset, limit };
            const expected = await page(walking, query, viewer);
            for (const model of models) {
              expect(await page(model, query, viewer), JSON.stringify({ ...query, viewer: viewer?.login })).to.deep.equal(
                expected,
              );
            }
            compared += expected.length;
          }
        }
      }
    }
    expect(compared).to.be.greaterThan(300);
  });

  it('leaves out, for a user, the topics and replies of their blocked nodes and users, and only for them', async () => {
    const other = await makeNode('Other');
    const inBlockedNode = await makeTopic(alice, other, 'Node', 'needle in a blocked node');
    const byBlocked = await makeTopic(bob, node, 'Bob', 'needle by a blocked user');
    const mine = await makeTopic(alice, node, 'Mine', 'needle of my own');
    const replyByBlocked = await makeReply(bob, mine, 'needle in a reply by a blocked user');
    const carol = await makeUser('carol');
    await api().post(`/api/v3/nodes/${other}/block`).set(carol.auth).expect(200);
    await api().post('/api/v3/users/bob/block').set(carol.auth).expect(200);
    expect(ids(await search({ q: 'needle' }, carol))).to.deep.equal([`t${mine}`]);
    expect(ids(await search({ q: 'needle' }))).to.have.members([
      `t${inBlockedNode}`,
      `t${byBlocked}`,
      `t${mine}`,
      `r${replyByBlocked}`,
    ]);
    expect(await search({ q: 'needle' }, alice)).to.have.length(4);
  });

  it('highlights as text with only <mark> tags: nothing of the body becomes markup', async () => {
    const topic = await makeTopic(
      alice,
      node,
      'Escaping',
      'Use `<script>alert(1)</script>` & compare 1 < 2 in the database <b>now</b> <mark>fake</mark>',
    );
    const [result] = await search({ q: 'database' });
    expect(result!.topic.id).to.equal(topic);
    expect(onlyMarkTags(result!.highlight), result!.highlight).to.equal(true);
    expect(result!.highlight).to.include(
      '&lt;script&gt;alert(1)&lt;/script&gt; &amp; compare 1 &lt; 2 in the <mark>database</mark>',
    );
    expect(result!.highlight.match(/<mark>/g)).to.have.length(1);
  });

  it('cuts a long body to an excerpt around the first match', async () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(40);
    await makeTopic(alice, node, 'Long', `${filler}the needle is here ${filler}`);
    const [result] = await search({ q: 'needle' });
    expect(result!.highlight).to.match(/^….*<mark>needle<\/mark>.*…$/);
    expect(result!.highlight.length).to.be.lessThan(220);
  });

  it('answers 400 ParameterInvalid for a missing or blank q, an unknown type, or a limit out of range', async () => {
    for (const query of [
      {},
      { q: '' },
      { q: '   ' },
      { q: 'x', type: 'user' },
      { q: 'x', limit: 51 },
      { q: 'x', limit: 0 },
      { q: 'x'.repeat(201) },
    ]) {
      const res = await api().get('/api/v3/search').query(query).expect(400);
      expect(res.body.error, JSON.stringify(query)).to.equal('ParameterInvalid');
    }
  });

  it('answers a page past every result, however deep, with no results', async () => {
    await makeTopic(alice, node, 'alpha deep', 'alpha');
    for (const offset of [5, 170_000_000, 2_147_483_647]) {
      const res = await api().get('/api/v3/search').query({ q: 'alpha', offset, limit: 50 }).expect(200);
      expect(res.body.results, String(offset)).to.deep.equal([]);
    }
  });

  it('finds nothing, quickly and without error, for stop words or punctuation alone', async () => {
    await makeTopic(alice, node, 'The topic', 'the and of');
    expect(await search({ q: 'the' })).to.deep.equal([]);
    expect(await search({ q: '!!! ???' })).to.deep.equal([]);
  });

  it('forumctl search reindex builds the index from the rows, and keeps a newer version over an older one', async () => {
    const topic = await makeTopic(alice, node, 'Indexed', 'plain words');
    // Rows written behind the service's back (an import, or data from before the index existed).
    await testEnv().sql(`update topics set body_html = '<p>imported 数据库 text</p>' where id = $1`, [topic]);
    const [{ id: reply }] = await testEnv().sql<{ id: number }>(
      `insert into replies (topic_id, user_id, body, body_html) values ($1, $2, 'x', '<p>imported reply</p>') returning id`,
      [topic, bob.id],
    );
    await testEnv().sql('delete from search_documents');
    expect(await search({ q: 'imported' })).to.deep.equal([]);

    const analyzed = () =>
      testEnv().sql<{ n: number }>("select analyze_count::int as n from pg_stat_user_tables where relname = 'search_documents'");
    // PostgreSQL 15 and later count an ANALYZE in shared memory as it ends: no waiting for a statistics collector.
    const [{ n: analyzedBefore }] = await analyzed();
    const res = await forumctl(['search', 'reindex', '--json', '--batch-size', '1']);
    expect(res.code, res.stderr).to.equal(0);
    expect(res.json()).to.deep.equal({ indexed: { topics: 1, replies: 1 } });
    // It leaves the statistics searches read (which words are common) up to date.
    expect((await analyzed())[0]!.n).to.be.greaterThan(analyzedBefore);
    expect(ids(await search({ q: 'imported' }))).to.have.members([`t${topic}`, `r${reply}`]);
    expect(ids(await search({ q: '数据库' }))).to.deep.equal([`t${topic}`]);

    // A reindex batch read before an edit must not put the old words back after it.
    const env = testEnv();
    const before = new Date(Date.now() - 60_000);
    await env.sql('update search_documents set source_updated_at = now() where topic_id = $1 and reply_id is null', [topic]);
    await new SqlSearchIndex(env.persistence.sql, new StagedRows(env.persistence.sql)).put([
      {
        topicId: topic,
        replyId: null,
        title: 'Indexed',
        body: 'stale words',
        text: 'stale words',
        createdAt: before,
        sourceUpdatedAt: before,
      },
    ]);
    expect(await search({ q: 'stale' })).to.deep.equal([]);
    expect(ids(await search({ q: '数据库' }))).to.deep.equal([`t${topic}`]);

    expect((await forumctl(['search', 'reindex', '--batch-size', '0'])).code).to.equal(2);
  });
});
