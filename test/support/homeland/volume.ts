import pg from 'pg';
import { devisePasswordHash, HOMELAND_MIGRATIONS, syncSequences } from './factory.js';

/**
 * A large homeland community for timing `forumctl import homeland` (issue 36): set-based inserts
 * (`insert … select … from generate_series`), deterministic (every "random" choice is a hash of the row number),
 * into a database that `createHomelandDatabase` (schema.ts) made. 100,000 topics and 1,000,000 replies take well
 * under a minute on a laptop-class server (bench/import-homeland.ts `--fill-only` measures it).
 *
 * It has the shape of a real homeland database rather than its exact semantics (factory.ts is the one to assert
 * against): people and a few teams; nodes, one hidden by the `node_ids_hide_in_topics_index` setting; topics over
 * ten years with a share excellent, banned, closed, pinned, deleted, owned by a team; replies a few hundred bytes of
 * varied Markdown (code blocks, links, @mentions, photo links), some deleted, some system events (about 1 %, by an
 * administrator, body ''), some `mention` events and `reply_to_id`s; likes of topics and replies (a few duplicate
 * rows), follows of users and topics, favorites, blocks, `reference` actions; notifications of every type, most
 * read; devices; OAuth applications and tokens (live, expired, revoked); photos (rows only, no files); settings and
 * schema_migrations; and the counter caches as Rails leaves them (system events counted in users' replies_count,
 * soft deletes never subtracted). Every user has the same devise hash (of `password`).
 */

export interface HomelandVolumePlan {
  /** People (teams come on top: one per 500 people, at least one). */
  users: number;
  nodes: number;
  topics: number;
  replies: number;
  /** Like rows (4 in 10 of topics, the rest of replies). Default: 5 per topic. */
  likes?: number;
  /** Default: 10 per topic. */
  notifications?: number;
  /** The password every account has. Default 'password'. */
  password?: string;
  /** bcrypt cost of the one hash (homeland's production uses 10). Default 10. */
  cost?: number;
}

/** Rows written, per table. */
export interface HomelandVolumeCounts {
  users: number;
  teams: number;
  nodes: number;
  topics: number;
  replies: number;
  actions: number;
  likes: number;
  notifications: number;
  devices: number;
  oauth_applications: number;
  oauth_access_tokens: number;
  photos: number;
}

const SPAN_SECONDS = 10 * 365 * 86_400; // 2014-01-01 to the end of 2023
const BASE = "timestamp '2014-01-01 00:00:00'";

/** The tables whose secondary indexes are dropped while they fill and rebuilt afterwards (faster than row by row). */
const BULK_TABLES = ['users', 'topics', 'replies', 'actions', 'notifications'];

/** Fills an empty homeland-schema database (one transaction). Logs nothing. */
export async function fillHomelandVolume(url: string, plan: HomelandVolumePlan): Promise<HomelandVolumeCounts> {
  const whole = (name: string, value: number, min: number) => {
    if (!Number.isInteger(value) || value < min)
      throw new Error(`fillHomelandVolume: ${name} must be a whole number from ${min}`);
    return value;
  };
  const U = whole('users', plan.users, 2);
  const N = whole('nodes', plan.nodes, 2);
  const T = whole('topics', plan.topics, 1);
  const R = whole('replies', plan.replies, 0);
  const L = whole('likes', plan.likes ?? T * 5, 0);
  const M = whole('notifications', plan.notifications ?? T * 10, 0);
  const K = Math.max(1, Math.floor(U / 500));
  const encrypted = await devisePasswordHash(plan.password ?? 'password', { cost: plan.cost ?? 10, salt: Buffer.alloc(16, 42) });

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from users');
    if (rows[0]!.n > 0) throw new Error('fillHomelandVolume: the homeland database is not empty');
    await client.query('begin');
    await client.query("set local maintenance_work_mem = '512MB'");
    await client.query("set local work_mem = '64MB'");
    // A deterministic hash of a row number and a salt: a non-negative bigint.
    await client.query(`
      create function pg_temp.h(i bigint, salt int) returns bigint language sql immutable parallel safe
      as $$ select hashint8extended(i, salt) & 9223372036854775807 $$`);
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where schemaname = 'public' and tablename = any($1) and indexname not in
         (select conname from pg_constraint where contype in ('p', 'u'))`,
      [BULK_TABLES],
    );
    for (const index of indexes.rows) await client.query(`drop index ${pg.escapeIdentifier(index.indexname)}`);

    const at = (fraction: string) => `(${BASE} + (${fraction}) * interval '${SPAN_SECONDS} seconds')`;

    // People, then teams.
    await client.query(
      `insert into users (id, login, name, email, email_md5, email_public, location, bio, website, github, state, tagline,
         created_at, updated_at, encrypted_password, sign_in_count, current_sign_in_at, last_sign_in_at, type,
         confirmed_at, confirmation_sent_at, team_users_count)
       select i, 'user' || i, case when i % 7 = 0 then null else 'User ' || i end, 'user' || i || '@example.com',
         md5('user' || i || '@example.com'), i % 5 = 0,
         (array['Shanghai', 'Beijing', 'Hangzhou', 'Chengdu', 'Shenzhen', 'Tokyo', null])[1 + i % 7],
         case when i % 11 = 0 then 'Rubyist since ' || (2005 + i % 15) end,
         case when i % 13 = 0 then 'https://user' || i || '.example.org' end,
         case when i % 3 = 0 then 'user' || i end,
         case when i = 1 then 99 when i % 997 = 0 then 90 when i % 211 = 0 then -1 when i % 401 = 0 then 2
              when i % 89 = 0 then 3 else 1 end,
         case when i % 17 = 0 then 'Hello from user ' || i end,
         c, c + interval '1 day' * (pg_temp.h(i, 2) % 400), $1, (pg_temp.h(i, 3) % 500)::int,
         c + interval '1 day' * (pg_temp.h(i, 4) % 400), c + interval '1 day' * (pg_temp.h(i, 4) % 300), null,
         case when i % 53 = 0 then null else c + interval '10 minutes' end, c, null
       from generate_series(1, ${U}) i, lateral (select ${at(`i::float8 / ${U} * 0.9`)} + interval '1 microsecond' * (pg_temp.h(i, 1) % 1000000) as c) t`,
      [encrypted],
    );
    await client.query(
      `insert into users (id, login, name, email, email_md5, state, created_at, updated_at, encrypted_password, type,
         confirmed_at, team_users_count)
       select ${U} + k, 'team' || k, 'Team ' || k, 'team' || k || '@example.com', md5('team' || k || '@example.com'), 1,
         c, c, '', 'Team', c, 2
       from generate_series(1, ${K}) k, lateral (select ${at(`k::float8 / ${K} * 0.5`)} as c) t`,
    );
    await client.query(
      `insert into team_users (team_id, user_id, role, status, created_at, updated_at)
       select ${U} + k, 1 + (pg_temp.h(k * 2 + j, 5) % ${U}), j, 1 - j, now() at time zone 'UTC', now() at time zone 'UTC'
       from generate_series(1, ${K}) k, generate_series(0, 1) j`,
    );

    await client.query(
      `insert into nodes (id, name, summary, sort, created_at, updated_at)
       select i, coalesce((array['Ruby', 'Rails', 'Go', '招聘', 'Python', 'JavaScript', 'DevOps', '数据库', 'Off-topic'])[i], 'Node ' || i),
         case when i % 4 = 0 then null else 'About node ' || i end, i % 10, ${BASE}, ${BASE}
       from generate_series(1, ${N}) i`,
    );

    // Paragraphs of Markdown the bodies are made of (a few hundred bytes each body).
    const paragraphs = `array[
      'Ruby 3.4 的 YJIT 在我们的项目里带来了大约 15% 的性能提升，内存占用略有上升，整体上值得升级。',
      'We moved the background jobs from Sidekiq to Solid Queue last month; the database load went up a little but the ops story is much simpler.',
      E'\`\`\`ruby\\nclass Topic < ApplicationRecord\\n  has_many :replies, dependent: :destroy\\n  scope :recent, -> { order(id: :desc) }\\nend\\n\`\`\`',
      '有没有人遇到过 PostgreSQL 在大表上 \`count(*)\` 很慢的问题？我们目前用的是计数缓存，但总觉得不够准确。',
      E'- 第一点：先写测试\\n- 第二点：再写实现\\n- 第三点：**重构**，保持测试通过',
      'See [the upgrade guide](https://guides.rubyonrails.org/upgrading_ruby_on_rails.html) before you bump the major version, especially the part about autoloading.',
      E'\`\`\`sql\\nselect topic_id, count(*) from replies where deleted_at is null group by topic_id order by 2 desc limit 10;\\n\`\`\`',
      E'> 过早优化是万恶之源。\\n\\n但是过晚优化也很痛苦。',
      'Kamal 2 部署起来比 Capistrano 简单多了，一个 \`deploy.yml\` 搞定，推荐大家试试。',
      'The N+1 query in the notifications page is back: \`includes(:actor, :target)\` fixes it, but only when the target is not polymorphic.',
      '我们团队在招 Ruby 工程师，远程优先，有兴趣的可以私信我。',
      '感谢分享，学习了 :+1:'
    ]`;
    const body = (i: string, salt: number) => `concat_ws(E'\\n\\n',
        (${paragraphs})[1 + pg_temp.h(${i}, ${salt}) % 12],
        (${paragraphs})[1 + pg_temp.h(${i}, ${salt + 1}) % 12],
        case when pg_temp.h(${i}, ${salt + 2}) % 3 = 0 then (${paragraphs})[1 + pg_temp.h(${i}, ${salt + 3}) % 12] end,
        case when pg_temp.h(${i}, ${salt + 4}) % 10 = 0 then '@user' || (1 + pg_temp.h(${i}, ${salt + 5}) % ${U}) || ' 你怎么看？' end,
        case when pg_temp.h(${i}, ${salt + 6}) % 25 = 0
          then 'https://ruby-china.org/topics/' || (1 + pg_temp.h(${i}, ${salt + 7}) % ${T}) end,
        case when pg_temp.h(${i}, ${salt + 8}) % 40 = 0
          then '![image.png](/uploads/photo/user' || (1 + pg_temp.h(${i}, ${salt + 9}) % ${U}) || '/' ||
               md5(${i}::text)::uuid || '.png!large)' end)`;
    const mentioned = (i: string, salt: number) =>
      `case when pg_temp.h(${i}, ${salt + 4}) % 10 = 0 then array[(1 + pg_temp.h(${i}, ${salt + 5}) % ${U})::int] else '{}'::int[] end`;

    await client.query(
      `insert into topics (id, user_id, node_id, title, body, who_deleted, last_active_mark, lock_node, suggested_at, grade,
         replies_count, likes_count, mentioned_user_ids, deleted_at, created_at, updated_at, closed_at, team_id)
       select i, 1 + pg_temp.h(i, 10) % ${U},
         case when i % 50 = 0 then ${N} else 1 + (pg_temp.h(i, 11) % ${N}) * (pg_temp.h(i, 12) % ${N}) / ${N} end,
         (array['如何', 'How to', '关于', 'Why', '讨论：', 'Ask:'])[1 + i % 6] || ' ' ||
           (array['升级 Rails 8', 'tune PostgreSQL', '部署 Kamal', 'write faster Ruby', '处理 N+1', 'test Hotwire'])[1 + pg_temp.h(i, 13) % 6]
           || ' #' || i,
         ${body('i', 20)},
         case when i % 61 = 0 then 'user1' end,
         case when i % 1000 = 999 then null else extract(epoch from c)::int end,
         i % 1009 = 0, case when i % 2003 = 0 then c + interval '1 day' end,
         case when i % 97 = 0 then 1 when i % 331 = 0 then -1 else 0 end,
         0, 0, ${mentioned('i', 20)},
         case when i % 61 = 0 then c + interval '1 day' end, c, c,
         case when i % 233 = 0 then c + interval '3 days' end,
         case when i % 503 = 0 then ${U} + 1 + i % ${K} end
       from generate_series(1, ${T}) i, lateral (select ${at(`i::float8 / ${T}`)} + interval '1 microsecond' * (pg_temp.h(i, 14) % 1000000) as c) t`,
    );

    // Reply i comes at time i / R of the span: to one of the 20 newest topics then, or (1 in 5) to an older
    // "popular" one (ids divisible by 50); either way its topic is older than it.
    await client.query(
      `insert into replies (id, user_id, topic_id, body, state, mentioned_user_ids, deleted_at, created_at, updated_at, action,
         target_type, target_id)
       select i,
         case when kind = 'event' then 1 else 1 + pg_temp.h(i, 30) % ${U} end,
         case when pg_temp.h(i, 31) % 5 = 0 then 1 + (pg_temp.h(i, 32) % greatest(1, cur / 50)) * 50
              else cur - pg_temp.h(i, 33) % least(cur, 20) end,
         case when kind = 'normal' then ${body('i', 40)} when act = 'ban' then '广告' else '' end,
         1, case when kind = 'normal' then ${mentioned('i', 40)} else '{}'::int[] end,
         case when kind = 'normal' and i % 33 = 0 then c + interval '1 hour' end, c,
         case when kind = 'normal' and i % 33 = 0 then c + interval '1 hour' else c end,
         act, case when kind = 'mention' then 'Reply' end, case when kind = 'mention' then (i - 1)::text end
       from generate_series(1, ${R}) i,
         lateral (select greatest(1, (i::bigint * ${T}) / ${Math.max(R, 1)})::int as cur,
                         case when i % 100 = 7 then 'event' when i % 500 = 11 then 'mention' else 'normal' end as kind,
                         ${at(`greatest(i::float8 / ${Math.max(R, 1)}, 1.0 / ${T})`)} + interval '1 second'
                           + interval '1 microsecond' * (pg_temp.h(i, 35) % 1000000) as c) t,
         lateral (select case kind when 'normal' then null when 'mention' then 'mention'
                    else (array['excellent', 'close', 'reopen', 'unexcellent', 'ban'])[1 + pg_temp.h(i, 34) % 5] end as act) a`,
    );
    // reply_to_id only where the previous reply is in the same topic (homeland clears it otherwise).
    await client.query(
      `update replies r set reply_to_id = p.id from replies p
       where r.id % 17 = 0 and p.id = r.id - 1 and p.topic_id = r.topic_id and r.action is null and p.action is null`,
    );

    // Actions. Likes: distinct (user, target) pairs, self-likes left out, and a duplicate row now and then.
    const topicLikes = Math.floor(L * 0.4);
    const replyLikes = R > 0 ? L - topicLikes : 0;
    await client.query(
      `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
       select 'like', 'Topic', t.id, 'User', u, t.created_at + interval '1 hour', t.created_at + interval '1 hour'
       from generate_series(0, ${topicLikes} - 1) j cross join
         lateral (select 1 + j % ${U} as u, 1 + ((j / ${U}) + (j % ${U}) * 7919) % ${T} as target) p
         join topics t on t.id = p.target
       where t.user_id <> u`,
    );
    if (replyLikes > 0) {
      await client.query(
        `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
         select 'like', 'Reply', r.id, 'User', u, r.created_at + interval '1 hour', r.created_at + interval '1 hour'
         from generate_series(0, ${replyLikes} - 1) j cross join
           lateral (select 1 + j % ${U} as u, 1 + ((j / ${U}) + (j % ${U}) * 7919) % ${R} as target) p
           join replies r on r.id = p.target
         where r.user_id <> u and r.action is null`,
      );
    }
    await client.query(
      `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
       select action_type, target_type, target_id, user_type, user_id, created_at, created_at
       from actions where id % 5000 = 1`,
    );
    // Follows of users (3 per person; now and then oneself), of topics, favorites, blocks, references.
    await client.query(
      `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
       select 'follow', 'User', 1 + ((j / ${U}) * 131 + (j % ${U}) * 7 + 1) % ${U}, 'User', 1 + j % ${U}, c, c
       from generate_series(0, ${U * 3} - 1) j, lateral (select ${at(`0.9 + (j::float8 / ${U * 3}) * 0.1`)} as c) t`,
    );
    await client.query(
      `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
       select kind, 'Topic', t.id, 'User', 1 + pg_temp.h(j, 50) % ${U}, t.created_at + interval '2 hours', t.created_at + interval '2 hours'
       from generate_series(1, ${T}) j cross join lateral (select case when j % 2 = 0 then 'follow' else 'favorite' end as kind) k
         join topics t on t.id = 1 + pg_temp.h(j, 51) % ${T}`,
    );
    await client.query(
      `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
       select 'block', case when j % 3 = 0 then 'Node' else 'User' end,
         case when j % 3 = 0 then 1 + pg_temp.h(j, 52) % ${N} else 1 + pg_temp.h(j, 53) % ${U} end,
         'User', 1 + pg_temp.h(j, 54) % ${U}, ${at('0.95')}, ${at('0.95')}
       from generate_series(1, greatest(1, ${U} / 50)) j`,
    );
    await client.query(
      `insert into actions (action_type, target_type, target_id, user_type, user_id, created_at, updated_at)
       select 'reference', 'Topic', 1 + pg_temp.h(j, 55) % ${T}, 'Topic', 1 + pg_temp.h(j, 56) % ${T}, ${at('0.5')}, ${at('0.5')}
       from generate_series(1, greatest(1, ${T} / 20)) j`,
    );

    // Notifications of every type, 7 in 10 read; about replies written by hand and not deleted (homeland deletes a
    // reply's notifications with it, and system events notify nobody).
    if (M > 0) {
      await client.query(
        `insert into notifications (user_id, actor_id, notify_type, target_type, target_id, second_target_type, second_target_id,
           read_at, created_at, updated_at)
         select 1 + pg_temp.h(j, 60) % ${U},
           case when kind = 'node_changed' then null else 1 + pg_temp.h(j, 61) % ${U} end,
           case when kind like 'mention%' then 'mention' else kind end,
           case kind when 'topic_reply' then 'Reply' when 'mention_reply' then 'Reply' when 'mention_topic' then 'Topic'
             when 'topic' then 'Topic' when 'node_changed' then 'Topic' when 'comment' then 'Comment' when 'team_invite' then 'TeamUser' end,
           case when kind in ('topic_reply', 'mention_reply') then r.id
                when kind in ('mention_topic', 'topic', 'node_changed') then r.topic_id
                when kind in ('comment', 'team_invite') then 1 + j % 1000 end,
           case kind when 'topic_reply' then 'Topic' when 'mention_reply' then 'Topic' when 'node_changed' then 'Node'
             when 'comment' then 'Page' when 'team_invite' then 'Team' end,
           case when kind in ('topic_reply', 'mention_reply') then r.topic_id when kind = 'node_changed' then 1 + j % ${N}
                when kind = 'comment' then 1 + j % 100 when kind = 'team_invite' then ${U} + 1 + j % ${K} end,
           case when j % 10 < 7 then r.created_at + interval '1 day' end, r.created_at + interval '1 minute',
           case when j % 10 < 7 then r.created_at + interval '1 day' else r.created_at + interval '1 minute' end
         from (select j, x from generate_series(1, ${M} + ${M} / 5 + 10) j
                 cross join lateral (select 1 + pg_temp.h(j, 62) % ${Math.max(R, 1)} as x) c
               where x % 100 <> 7 and x % 500 <> 11 and x % 33 <> 0 limit ${M}) s cross join
           lateral (select case when j % 100 < 60 then 'topic_reply' when j % 100 < 72 then 'mention_reply'
                                when j % 100 < 78 then 'mention_topic' when j % 100 < 86 then 'topic'
                                when j % 100 < 93 then 'follow' when j % 100 < 95 then 'node_changed'
                                when j % 100 < 98 then 'comment' else 'team_invite' end as kind) k
           join replies r on r.id = s.x`,
      );
    }

    await client.query(
      `insert into devices (platform, user_id, token, last_actived_at, created_at, updated_at)
       select j % 2, 1 + pg_temp.h(j, 70) % ${U}, case when j % 2 = 0 then md5('device' || j) || md5('token' || j) else 'fcm:' || md5('device' || j) end,
         case when j % 5 = 0 then null else ${at('0.99')} - interval '1 hour' * (j % 5000) end, ${at('0.8')}, ${at('0.8')}
       from generate_series(1, greatest(1, ${U} / 3)) j`,
    );
    await client.query(
      `insert into oauth_applications (name, uid, secret, redirect_uri, scopes, created_at, updated_at, owner_id, owner_type, level, confidential)
       select 'App ' || j, translate(rtrim(encode(sha256(('uid' || j)::bytea), 'base64'), '='), '+/', '-_'), encode(sha256(('secret' || j)::bytea), 'hex'),
         'app' || j || E'://oauth/callback\\nurn:ietf:wg:oauth:2.0:oob', '', ${at('0.3')}, ${at('0.3')}, 1 + j % ${U}, 'User', j % 4, j % 3 <> 0
       from generate_series(1, 5) j`,
    );
    // Tokens: a third live (made in the last week, 7-day life, refresh token), a third expired without a refresh
    // token, the rest revoked.
    await client.query(
      `insert into oauth_access_tokens (resource_owner_id, application_id, token, refresh_token, expires_in, revoked_at, created_at, scopes)
       select 1 + pg_temp.h(j, 80) % ${U}, 1 + j % 5, md5('access' || j) || md5('a' || j),
         case when j % 3 <> 1 then md5('refresh' || j) || md5('r' || j) end, 604800,
         case when j % 3 = 2 then (now() at time zone 'UTC') - interval '1 day' end,
         case when j % 3 = 1 then (now() at time zone 'UTC') - interval '30 days'
              else (now() at time zone 'UTC') - interval '1 minute' * (j % 10000) end, 'all'
       from generate_series(1, greatest(1, ${U} / 10)) j`,
    );
    await client.query(
      `insert into photos (user_id, image, created_at, updated_at)
       select u, 'user' || u || '/' || md5(j::text)::uuid || '.png', ${at('0.7')}, ${at('0.7')}
       from generate_series(1, greatest(1, ${T} / 20)) j, lateral (select 1 + pg_temp.h(j, 90) % ${U} as u) p`,
    );
    await client.query(
      `insert into settings (var, value, created_at, updated_at) values
         ('admin_emails', E'--- |-\\n  user1@example.com\\n  user2@example.com\\n', ${BASE}, ${BASE}),
         ('node_ids_hide_in_topics_index', E'--- ''${N}''\\n', ${BASE}, ${BASE}),
         ('default_locale', E'--- zh-CN\\n', ${BASE}, ${BASE}),
         ('app_name', E'--- Ruby China\\n', ${BASE}, ${BASE})`,
    );
    await client.query(`insert into schema_migrations (version) select unnest($1::varchar[]) on conflict do nothing`, [
      HOMELAND_MIGRATIONS,
    ]);

    // Counter caches, as Rails leaves them.
    await client.query(
      `update topics t set replies_count = s.n, last_reply_id = s.last_id
       from (select topic_id, count(*) filter (where action is null and deleted_at is null) as n,
                    max(id) filter (where action is null and deleted_at is null) as last_id
             from replies group by topic_id) s
       where s.topic_id = t.id`,
    );
    await client.query(
      `update topics t set last_reply_user_id = r.user_id, last_reply_user_login = u.login, replied_at = r.created_at,
         updated_at = greatest(t.updated_at, r.created_at),
         last_active_mark = case when t.last_active_mark is not null and r.created_at < t.created_at + interval '1 month'
                                 then extract(epoch from r.created_at)::int else t.last_active_mark end
       from replies r join users u on u.id = r.user_id
       where r.id = t.last_reply_id`,
    );
    await client.query(
      `update topics t set likes_count = s.n from
         (select target_id, count(*) as n from actions where action_type = 'like' and target_type = 'Topic' group by target_id) s
       where s.target_id = t.id`,
    );
    await client.query(
      `update replies r set likes_count = s.n from
         (select target_id, count(*) as n from actions where action_type = 'like' and target_type = 'Reply' group by target_id) s
       where s.target_id = r.id`,
    );
    await client.query(
      `update users u set topics_count = coalesce(t.n, 0), replies_count = coalesce(r.n, 0),
         followers_count = coalesce(fr.n, 0), following_count = coalesce(fg.n, 0)
       from users x
         left join (select user_id, count(*) as n from topics group by user_id) t on t.user_id = x.id
         left join (select user_id, count(*) as n from replies group by user_id) r on r.user_id = x.id
         left join (select target_id, count(*) as n from actions where action_type = 'follow' and target_type = 'User'
                    group by target_id) fr on fr.target_id = x.id
         left join (select user_id, count(*) as n from actions where action_type = 'follow' and target_type = 'User'
                    group by user_id) fg on fg.user_id = x.id
       where x.id = u.id and x.type is null`,
    );
    await client.query(
      `update users u set topics_count = s.n from (select team_id, count(*) as n from topics where team_id is not null group by team_id) s
       where s.team_id = u.id`,
    );
    await client.query(
      `update nodes n set topics_count = s.n from (select node_id, count(*) as n from topics group by node_id) s where s.node_id = n.id`,
    );

    for (const index of indexes.rows) await client.query(index.indexdef);
    await syncSequences(client);
    await client.query('commit');
    await client.query('analyze');

    const counts = await client.query<Record<keyof HomelandVolumeCounts, number>>(`
      select (select count(*) from users where type is null)::int as users,
             (select count(*) from users where type = 'Team')::int as teams,
             (select count(*) from nodes)::int as nodes,
             (select count(*) from topics)::int as topics,
             (select count(*) from replies)::int as replies,
             (select count(*) from actions)::int as actions,
             (select count(*) from actions where action_type = 'like')::int as likes,
             (select count(*) from notifications)::int as notifications,
             (select count(*) from devices)::int as devices,
             (select count(*) from oauth_applications)::int as oauth_applications,
             (select count(*) from oauth_access_tokens)::int as oauth_access_tokens,
             (select count(*) from photos)::int as photos`);
    return counts.rows[0]!;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
