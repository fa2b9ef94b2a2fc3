/**
 * `npm run bench:read-state`: what read state (contract §22) takes at the bench's size. On a scratch copy of the
 * seeded database of 100,000 topics (`npm run bench` seeds `forum_bench_100000`; BENCH_DATABASE_URL names its
 * server), it simulates a month of 1,000 readers, prints the rows and bytes each reader's marks take, and then times
 * the lists of one reader who opened 1,000 topics: `type=unread`, `type=new` and `unread_count`, one request at a
 * time (p50 and p99). The copy is dropped at the end.
 *
 * The month: each reader opens 300 topics (ten a day), drawn with a skew toward the most recently active (the
 * topic at activity rank ⌊N·u³⌋ for a uniform u: half the draws fall in the newest eighth), so that a reader opens
 * some topics more than once and holds fewer marks than reads; 70 % of the marks are at the topic's last reply, 20 %
 * one reply behind it (an unread reply), 10 % at no reply (opened, not read on).
 */
import { createHash, randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { readArgs } from './args.js';
import { SERVICE_ENTRY, startServer } from './servers.js';

const USAGE = `usage: BENCH_DATABASE_URL=postgres://…/postgres npm run bench:read-state -- [--size 100000] [--readers 1000]
  [--reads 300] [--opened 1000] [--requests 200] [--keep]`;
const args = readArgs(
  {
    size: { type: 'string', default: '100000' },
    readers: { type: 'string', default: '1000' },
    reads: { type: 'string', default: '300' },
    opened: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '200' },
    /** Keep the scratch copy (to look into a plan), and print its name. */
    keep: { type: 'boolean', default: false },
  },
  USAGE,
);
if (!process.env.BENCH_DATABASE_URL) {
  console.error(USAGE);
  process.exit(2);
}

const urlOf = (name: string) => {
  const url = new URL(process.env.BENCH_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
};
const source = `forum_bench_${args.size}`;
const scratch = `forum_read_state_${process.pid}`;

/** The marks of `readers` readers (the seed's users from the second on), each opening `reads` topics as above. */
const SIMULATE = `
  create temporary table ranked as
    select t.id, t.last_reply_id, row_number() over (order by t.last_active_at desc, t.id desc)::int as rank
    from topics t where t.deleted_at is null;
  create unique index on ranked (rank);
  insert into topic_reads (user_id, topic_id, last_read_reply_id)
  select u.id, k.id,
         case when dice < 0.7 then k.last_reply_id
              when dice < 0.9 then (select max(r.id) from replies r where r.topic_id = k.id and r.id < k.last_reply_id)
         end
  from (select id from users where login like 'seed%' order by id offset 1 limit $1) u
  cross join lateral (select distinct 1 + floor((select count(*) from ranked) * power(random(), 3))::int as rank
                      from generate_series(1, $2) where u.id is not null) pick
  join ranked k on k.rank = pick.rank
  -- A die per mark from its ids (random() here is drawn once for the whole select, after its sort).
  cross join lateral (select ((k.id::bigint * 2654435761 + u.id * 40503) % 1000) / 1000.0 as dice) d
  on conflict do nothing`;

const admin = new pg.Client({ connectionString: urlOf('postgres') });
await admin.connect();
const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [source]);
if (!rowCount) {
  console.error(`${source} is not there: run \`npm run bench -- --sizes ${args.size}\` first, which seeds it`);
  process.exit(2);
}
console.error(`copying ${source} to ${scratch}…`);
await admin.query(`create database ${scratch} template ${source}`);
// A copy does not take its template's settings: the migrations turn JIT off for the database (Migration20261124020000), and
// with it on, a list's generic plan spent 0.7 s compiling itself.
for (const row of (
  await admin.query<{ setting: string }>(
    `select unnest(s.setconfig) as setting from pg_db_role_setting s join pg_database d on d.oid = s.setdatabase
     where d.datname = $1 and s.setrole = 0`,
    [source],
  )
).rows) {
  const [name, value] = [row.setting.slice(0, row.setting.indexOf('=')), row.setting.slice(row.setting.indexOf('=') + 1)];
  await admin.query(`alter database ${scratch} set ${pg.escapeIdentifier(name)} = ${pg.escapeLiteral(value)}`);
}
const db = new pg.Client({ connectionString: urlOf(scratch) });
let server: Awaited<ReturnType<typeof startServer>> | undefined;
const token = randomBytes(24).toString('base64url');
try {
  await db.connect();
  await db.query('delete from topic_reads');
  await db.query('delete from read_horizons');
  const readers = Number(args.readers);
  const started = Date.now();
  await db.query('begin');
  for (const statement of SIMULATE.split(';').filter((s) => s.trim())) {
    await db.query(statement, statement.includes('$1') ? [readers, Number(args.reads)] : []);
  }
  await db.query('commit');
  await db.query('vacuum (analyze) topic_reads');
  const [sizes] = (
    await db.query<{ rows: string; heap: string; index: string; total: string }>(
      `select (select count(*) from topic_reads) as rows, pg_relation_size('topic_reads') as heap,
              pg_indexes_size('topic_reads') as index, pg_total_relation_size('topic_reads') as total`,
    )
  ).rows;
  const per = (value: string) => Math.round(Number(value) / readers);
  console.log(
    `a month of ${readers} readers, ${args.reads} topics opened each (${Math.round((Date.now() - started) / 1000)} s):`,
  );
  console.log(`  ${sizes!.rows} marks: ${per(sizes!.rows)} per reader`);
  console.log(
    `  ${(Number(sizes!.total) / 2 ** 20).toFixed(1)} MiB (table ${(Number(sizes!.heap) / 2 ** 20).toFixed(1)}, key ` +
      `${(Number(sizes!.index) / 2 ** 20).toFixed(1)}): ${per(sizes!.total)} bytes per reader, ` +
      `${Math.round(Number(sizes!.total) / Number(sizes!.rows))} per mark`,
  );

  // One reader with `opened` marks among the most active topics (the session's ranking), one in five a reply behind,
  // and a token to list them with.
  const [reader] = (await db.query<{ id: number }>("select id from users where login like 'seed%' order by id limit 1")).rows;
  await db.query(
    `insert into topic_reads (user_id, topic_id, last_read_reply_id)
     select $1, k.id, case when k.id % 5 > 0 then k.last_reply_id
                           else (select max(r.id) from replies r where r.topic_id = k.id and r.id < k.last_reply_id) end
     from (select id, last_reply_id from ranked order by rank limit $2 * 4) k
     order by k.id limit $2`,
    [reader!.id, Number(args.opened)],
  );
  await db.query(`insert into oauth_tokens (access_digest, user_id, expires_at) values ($1, $2, now() + interval '1 day')`, [
    createHash('sha256').update(token).digest('hex'),
    reader!.id,
  ]);
  const [own] = (
    await db.query<{ n: string; behind: string }>(
      `select count(*) as n, count(*) filter (where tr.last_read_reply_id < t.last_reply_id or tr.last_read_reply_id is null) as behind
       from topic_reads tr join topics t on t.id = tr.topic_id where tr.user_id = $1`,
      [reader!.id],
    )
  ).rows;
  console.log(`one reader with ${own!.n} topics opened, ${own!.behind} of them behind their last reply:`);
  server = await startServer(SERVICE_ENTRY, urlOf(scratch), { env: { MAIL_CONCURRENCY: '0', WEBHOOKS_CONCURRENCY: '0' } });
  for (const path of ['/api/v3/topics?type=unread', '/api/v3/topics?type=new', '/api/v3/topics/unread_count']) {
    // Warm once, then one request at a time: each one's own time, not a queue's.
    await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const result = await autocannon({
      url: `${server.url}${path}`,
      headers: { authorization: `Bearer ${token}` },
      connections: 1,
      amount: Number(args.requests),
    });
    const failed = result.non2xx + result.errors;
    console.log(
      `  GET ${path}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${Math.round(result.requests.average)} req/s` +
        (failed ? `, ${failed} failed` : ''),
    );
  }
} finally {
  await server?.stop();
  await db.end().catch(() => undefined);
  if (args.keep) console.error(`kept ${scratch}, with the reader's token ${token}`);
  else await admin.query(`drop database if exists ${scratch} with (force)`);
  await admin.end();
}
