import type { DataSeeder, SeedPlan, SeedStep, SeedTexts } from '../../../application/maintenance/seed.js';
import type { UnitOfWork } from '../../../application/ports.js';
import type { Sql } from '../database/sql.js';
import { countedReply, countedTopic } from '../read-models/visibility.js';

/** Rows per statement: large enough to be fast, small enough to show progress and keep each statement short. */
const CHUNK = 100_000;

/**
 * Generates data with `generate_series` inside PostgreSQL: users, nodes, topics spread over a year, replies,
 * likes and notifications, then sets every counter and last-reply field with set-based updates.
 */
export class SqlDataSeeder implements DataSeeder {
  constructor(
    private readonly sql: Sql,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async seed(
    plan: SeedPlan,
    passwordHash: string,
    texts: SeedTexts,
    onStep: (step: SeedStep, done: number, total: number) => void,
  ): Promise<void> {
    // One transaction: a seed that fails half-way leaves nothing behind.
    await this.unitOfWork.run(() => this.seedIn(plan, passwordHash, texts, onStep));
    // Fresh statistics, so that the planner sees the new data at once; and the search index's visibility map,
    // so that its walks by date read the index alone.
    await this.sql.all('analyze');
    await this.sql.all('vacuum search_documents');
  }

  private async seedIn(
    plan: SeedPlan,
    passwordHash: string,
    texts: SeedTexts,
    onStep: (step: SeedStep, done: number, total: number) => void,
  ): Promise<void> {
    const run = (text: string, values: unknown[] = []) => this.sql.all(text, values);
    const base = async (table: string) =>
      (await this.sql.one<{ n: number }>(`select coalesce(max(id), 0)::int as n from ${table}`))!.n;
    const chunked = async (step: SeedStep, total: number, insert: (from: number, to: number) => Promise<unknown>) => {
      onStep(step, 0, total);
      for (let from = 1; from <= total; from += CHUNK) {
        const to = Math.min(from + CHUNK - 1, total);
        await insert(from, to);
        onStep(step, to, total);
      }
    };

    // Rows are picked at random from the ids each step really produced (sequences may have gaps).
    const pick = (table: string, firstId: string) => `(select array_agg(id) as ids from ${table} where id >= ${firstId})`;
    const any = (alias: string) => `${alias}.ids[1 + floor(random() * array_length(${alias}.ids, 1))::int]`;

    const firstUser = (await base('users')) + 1;
    await chunked('users', plan.users, (from, to) =>
      run(
        `insert into users (login, name, email, password_hash, role, created_at, updated_at)
         select 'seed' || ($1::int + g - 1), 'Seed user ' || ($1::int + g - 1), 'seed' || ($1::int + g - 1) || '@seed.example',
                $2, 'member', now(), now()
         from generate_series($3::int, $4::int) g`,
        [firstUser, passwordHash, from, to],
      ),
    );
    const firstNode = (await base('nodes')) + 1;
    await chunked('nodes', plan.nodes, (from, to) =>
      run(
        `insert into nodes (name, summary, sort) select 'Seed node ' || ($1::int + g - 1), 'A seeded node', g
         from generate_series($2::int, $3::int) g`,
        [firstNode, from, to],
      ),
    );

    // Titles and bodies are picked from the seed texts by id (the same picks give the search index its words):
    // a title, then three sentences (and the Markdown tail) for a topic, two sentences for a reply. Each step is
    // prime to the lists' lengths (24 titles, 44 sentences), so that every text is picked.
    const titles = texts.titles.map((title) => title.text);
    const titleWords = texts.titles.map((title) => title.words);
    const sentences = texts.sentences.map((sentence) => sentence.text);
    const sentenceWords = texts.sentences.map((sentence) => sentence.words);
    const title = (id: string, of: string) => `${of}[1 + (${id} * 5) % cardinality(${of})] || ' #' || ${id}`;
    const topicSentences = (id: string, of: string) =>
      `${of}[1 + (${id} * 7) % cardinality(${of})] || ' ' || ${of}[1 + (${id} * 13 + 5) % cardinality(${of})] || ' ' ||
       ${of}[1 + (${id} * 29 + 11) % cardinality(${of})]`;
    const replySentences = (id: string, of: string) =>
      `${of}[1 + (${id} * 19 + 3) % cardinality(${of})] || ' ' || ${of}[1 + (${id} * 17 + 7) % cardinality(${of})]`;

    const firstTopic = (await base('topics')) + 1;
    await chunked('topics', plan.topics, (from, to) =>
      run(
        `insert into topics (id, user_id, node_id, title, body, body_html, grade, created_at, updated_at, last_active_at)
         select k.id, ${any('u')}, ${any('n')}, ${title('k.id', '($1::text[])')},
                ${topicSentences('k.id', '($2::text[])')} || E'\n\n' || $3,
                '<p>' || ${topicSentences('k.id', '($2::text[])')} || E'</p>\n' || $4,
                case when random() < 0.02 then 'excellent' else 'normal' end, t.at, t.at, t.at
         from ${pick('users', '$5')} u, ${pick('nodes', '$6')} n,
              -- the id first, once per row (a volatile target list is never flattened into its uses)
              (select g, nextval(pg_get_serial_sequence('topics', 'id'))::int as id
               from generate_series($7::int, $8::int) g) k,
              lateral (select now() - random() * interval '365 days' + k.g * interval '0 seconds' as at) t`,
        [titles, sentences, texts.topicTail.markdown, texts.topicTail.html, firstUser, firstNode, from, to],
      ),
    );

    const firstReply = (await base('replies')) + 1;
    await chunked('replies', plan.replies, (from, to) =>
      run(
        `insert into replies (id, topic_id, user_id, body, body_html, created_at, updated_at)
         select k.id, ${any('t')}, ${any('u')}, ${replySentences('k.id', '($1::text[])')},
                '<p>' || ${replySentences('k.id', '($1::text[])')} || '</p>', x.at, x.at
         from ${pick('topics', '$2')} t, ${pick('users', '$3')} u,
              -- the id first, once per row (a volatile target list is never flattened into its uses)
              (select g, nextval(pg_get_serial_sequence('replies', 'id'))::int as id
               from generate_series($4::int, $5::int) g) k,
              lateral (select now() - random() * interval '300 days' + k.g * interval '0 seconds' as at) x`,
        [sentences, firstTopic, firstUser, from, to],
      ),
    );

    // Likes: half on topics, half on replies; duplicates and likes of one's own content are skipped.
    await chunked('likes', plan.likes, (from, to) =>
      run(
        `insert into likes (target_type, target_id, user_id)
         select l.kind, l.target, l.liker from (
           select case when g % 2 = 0 then 'topic' else 'reply' end as kind,
                  case when g % 2 = 0 then ${any('t')} else coalesce(${any('r')}, ${any('t')}) end as target,
                  ${any('u')} as liker
           from ${pick('topics', '$1')} t, ${pick('replies', '$2')} r, ${pick('users', '$3')} u,
                generate_series($4::int, $5::int) g) l
         where l.target is not null
           and not exists (select 1 from topics x where l.kind = 'topic' and x.id = l.target and x.user_id = l.liker)
           and not exists (select 1 from replies x where l.kind = 'reply' and x.id = l.target and x.user_id = l.liker)
         on conflict do nothing`,
        [firstTopic, firstReply, firstUser, from, to],
      ),
    );

    // Notifications: the topic author hears of the seeded replies (TopicReply), most of them already read.
    const lastReply = await base('replies');
    await chunked('notifications', plan.notifications, (from, to) =>
      run(
        `insert into notifications (user_id, actor_id, type, topic_id, reply_id, read_at, created_at, updated_at)
         select t.user_id, r.user_id, 'TopicReply', r.topic_id, r.id, case when random() < 0.8 then r.created_at end,
                r.created_at, r.created_at
         from replies r join topics t on t.id = r.topic_id
         where r.id between $1::int + $2 - 1 and $1::int + $3 - 1 and r.id <= $4 and t.user_id <> r.user_id`,
        [firstReply, from, to, lastReply],
      ),
    );

    // The search index of what was seeded, with the words of the same picks (cut into words by the service) and
    // the text a reader sees of them (the sentences and the tail's text, as the HTML above shows them).
    const lastTopic = await base('topics');
    const searchTotal = plan.topics + plan.replies;
    onStep('search', 0, searchTotal);
    for (let from = 1; from <= plan.topics; from += CHUNK) {
      const to = Math.min(from + CHUNK - 1, plan.topics);
      await run(
        `insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
         select t.id, null, to_tsvector('english', w.title), to_tsvector('english', w.title || ' ' || w.body),
                w.text, t.created_at, t.updated_at
         from topics t, lateral (select ${title('t.id', '($1::text[])')} as title,
                                        ${topicSentences('t.id', '($2::text[])')} || ' ' || $3 as body,
                                        ${topicSentences('t.id', '($8::text[])')} || ' ' || $9 as text) w
         where t.id between $4::int + $5 - 1 and least($4::int + $6 - 1, $7)`,
        [titleWords, sentenceWords, texts.topicTail.words, firstTopic, from, to, lastTopic, sentences, texts.topicTail.text],
      );
      onStep('search', to, searchTotal);
    }
    for (let from = 1; from <= plan.replies; from += CHUNK) {
      const to = Math.min(from + CHUNK - 1, plan.replies);
      await run(
        `insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
         select r.topic_id, r.id, null, to_tsvector('english', ${replySentences('r.id', '($1::text[])')}),
                ${replySentences('r.id', '($6::text[])')}, r.created_at, r.updated_at
         from replies r where r.id between $2::int + $3 - 1 and least($2::int + $4 - 1, $5)`,
        [sentenceWords, firstReply, from, to, lastReply, sentences],
      );
      onStep('search', plan.topics + to, searchTotal);
    }
    // Bulk inserts leave entries in the words index's pending list, which every search would read through.
    await run(`select gin_clean_pending_list('search_documents_words'::regclass)`);

    onStep('counters', 0, 5);
    // Each topic is written once, with all its counters and its last reply: every update of a row writes a new
    // version of it and of its index entries, so three updates of the same topics cost three times one.
    await run(`
      update topics t set replies_count = coalesce(c.n, t.replies_count), last_reply_id = coalesce(c.last_id, t.last_reply_id),
             last_active_at = greatest(t.last_active_at, c.last_at),
             last_reply_user_id = coalesce(r.user_id, t.last_reply_user_id),
             last_reply_user_login = coalesce(u.login, t.last_reply_user_login),
             replied_at = coalesce(r.created_at, t.replied_at), likes_count = coalesce(l.n, t.likes_count)
      from topics x
        left join (select topic_id, count(*)::int as n, max(id) as last_id, max(created_at) as last_at
                   from replies r where ${countedReply('r')} group by topic_id) c on c.topic_id = x.id
        left join replies r on r.id = c.last_id left join users u on u.id = r.user_id
        left join (select target_id, count(*)::int as n from likes where target_type = 'topic' group by target_id) l
          on l.target_id = x.id
      where t.id = x.id and (c.topic_id is not null or l.target_id is not null)`);
    onStep('counters', 2, 5);
    await run(`
      update replies r set likes_count = c.n from (select target_id, count(*)::int as n from likes where target_type = 'reply' group by target_id) c
      where r.id = c.target_id`);
    onStep('counters', 4, 5);
    await run(`
      update nodes n set topics_count = c.n from (select node_id, count(*)::int as n from topics t where ${countedTopic('t')} group by node_id) c
      where n.id = c.node_id`);
    await run(`
      update users u set topics_count = coalesce(t.n, 0), replies_count = coalesce(r.n, 0)
      from users x
      left join (select user_id, count(*)::int as n from topics t where ${countedTopic('t')} group by user_id) t on t.user_id = x.id
      left join (select user_id, count(*)::int as n from replies r where ${countedReply('r')} group by user_id) r on r.user_id = x.id
      where u.id = x.id`);
    await run(
      `insert into user_reply_months (user_id, month, replies)
       select user_id, date_trunc('month', created_at at time zone 'UTC')::date, count(*)::int
       from replies r where r.id >= $1 and ${countedReply('r')} group by 1, 2
       on conflict (user_id, month) do update set replies = user_reply_months.replies + excluded.replies`,
      [firstReply],
    );
    onStep('counters', 5, 5);
  }
}
