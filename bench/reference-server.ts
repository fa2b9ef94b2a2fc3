/**
 * The reference for `npm run bench`: the least a server can do to answer the same requests with the same JSON
 * and do the same work the contract requires, in as few round trips as can be designed. Plain node:http and a pg
 * pool with named prepared statements; no framework, no ORM, no logging, no validation library.
 *
 * Every request is one statement, the token lookup included (a `viewer` CTE on the bearer token's digest):
 * - the topic lists (signed in: the caller's blocked users and nodes left out; by node: 404 for an unknown node);
 * - show: the hit, the caller's notifications about the topic marked read, and the three meta flags;
 * - the reply list: the topic's visibility, the replies with their likers and the caller's likes;
 * - the unread count;
 * - reply create: the checks (token, topic, closed, role), the reply, its search document, the topic's and the
 *   user's counters, the monthly count, the notifications (author, followers, mentions, less those who blocked
 *   the replier) and the event, in one statement (one transaction); Markdown rendered and the words cut with
 *   the service's own adapters (markdown-it + sanitize-html, htmlparser2, jieba) before it.
 * - search: the query's words cut with jieba, the service's own statement (with a token, the caller looked up
 *   first), each result's text the one its search document keeps (from its HTML for a document without it) and
 *   highlighted with the service's own functions. The statement
 *   is the service's design: this measures what the service spends around it.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { SanitizingMarkdownRenderer } from '../src/adapters/system/markdown.js';
import { ParsedHtmlText } from '../src/adapters/system/html-text.js';
import { JiebaSegmenter } from '../src/adapters/system/jieba-segmenter.js';
import { searchStatementFor } from '../src/adapters/persistence/search/search.js';
import { highlighter, readerText, resultHighlight } from '../src/application/search/highlight.js';
import { markedText } from '../src/adapters/presentation/wire.js';

// Generic plans, as the service's SQL pool has them: each statement planned once per connection.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  options: '-c plan_cache_mode=force_generic_plan',
});
const publicUrl = process.env.PUBLIC_URL ?? 'http://127.0.0.1';
const markdown = new SanitizingMarkdownRenderer();
const htmlText = new ParsedHtmlText();
const segmenter = new JiebaSegmenter();

// Timestamps as the text PostgreSQL prints; turned into ISO 8601 only when written out.
pg.types.setTypeParser(1184, (value) => value);

interface Viewer {
  id: number;
  role: string;
}

/** $1 is always the bearer token's digest (null when there is none). */
const VIEWER = `viewer as (select u.id, u.role from oauth_tokens k join users u on u.id = k.user_id
  where k.access_digest = $1 and k.revoked_at is null and k.expires_at > now())`;
const VIEWER_COLUMNS = '(select id from viewer) as viewer_id, (select role from viewer) as viewer_role';

const TOPIC = `t.id, t.title, t.created_at, t.updated_at, t.replied_at, t.replies_count, t.node_id, n.name as node_name,
  t.last_reply_user_id, t.last_reply_user_login, t.grade, t.likes_count, t.hits, t.lock_node, t.closed_at,
  u.id as user_id, u.login as user_login, u.name as user_name,
  case when t.user_id = (select id from viewer) then exists(select 1 from replies r where r.topic_id = t.id
    and r.user_id <> t.user_id and r.action is null and r.deleted_at is null) else false end as has_replies_from_others`;
const FROM_TOPICS = 'from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id';
const BLOCKS = `and not exists (select 1 from node_blocks b where b.user_id = (select id from viewer) and b.node_id = t.node_id)
  and not exists (select 1 from user_blocks b where b.user_id = (select id from viewer) and b.blocked_user_id = t.user_id)`;
const LAST_ACTIVE = 'order by t.last_active_at desc, t.id desc limit $2 offset $3';

const REPLY = `r.id, r.topic_id, r.body, r.body_html, r.action, r.likes_count, r.deleted_at is not null as deleted,
  r.created_at, r.updated_at, u.id as user_id, u.login as user_login, u.name as user_name`;

const statements = {
  // A caller's list leaves out their blocks; an unknown token lists as the signed-out do (hidden nodes left out).
  list: `with ${VIEWER} select ${TOPIC}, ${VIEWER_COLUMNS} ${FROM_TOPICS}
         where t.deleted_at is null and ((select id from viewer) is null and not n.hidden or (select id from viewer) is not null ${BLOCKS})
         ${LAST_ACTIVE}`,
  listExcellent: `with ${VIEWER} select ${TOPIC}, ${VIEWER_COLUMNS} ${FROM_TOPICS}
         where t.deleted_at is null and t.grade = 'excellent'
           and ((select id from viewer) is null and not n.hidden or (select id from viewer) is not null ${BLOCKS})
         order by t.id desc limit $2 offset $3`,
  // One row with null topic columns when the node exists and has no topic on this page; no row when it does not.
  listNode: `with ${VIEWER}, node as (select id from nodes where id = $4)
         select p.*, ${VIEWER_COLUMNS} from node left join lateral (
           select ${TOPIC} ${FROM_TOPICS} where t.deleted_at is null and t.node_id = node.id ${LAST_ACTIVE}) p on true`,
  show: `with ${VIEWER},
         t as (update topics set hits = hits + 1 where id = $2 and deleted_at is null returning *),
         marked as (update notifications set read_at = now(), updated_at = now()
                    where user_id = (select id from viewer) and topic_id = $2 and read_at is null and exists (select 1 from t))
         select ${TOPIC}, t.body, t.body_html, ${VIEWER_COLUMNS},
           exists(select 1 from topic_follows f where f.topic_id = t.id and f.user_id = (select id from viewer)) as followed,
           exists(select 1 from likes l where l.target_type = 'topic' and l.target_id = t.id
                  and l.user_id = (select id from viewer)) as liked,
           exists(select 1 from topic_favorites f where f.topic_id = t.id and f.user_id = (select id from viewer)) as favorited
         from t join users u on u.id = t.user_id join nodes n on n.id = t.node_id`,
  // No row: no such topic. One row with a null id: a visible topic without replies on this page.
  replies: `with ${VIEWER}, topic as (select id from topics where id = $2 and deleted_at is null)
         select p.*, ${VIEWER_COLUMNS} from topic left join lateral (
           select ${REPLY},
             array(select l.user_id from likes l where l.target_type = 'reply' and l.target_id = r.id
                   order by l.created_at, l.user_id) as liked_user_ids,
             exists(select 1 from likes l where l.target_type = 'reply' and l.target_id = r.id
                    and l.user_id = (select id from viewer)) as liked
           from replies r join users u on u.id = r.user_id where r.topic_id = topic.id order by r.id limit $3 offset $4) p on true`,
  viewer: `with ${VIEWER} select id, role from viewer`,
  unreadCount: `with ${VIEWER} select v.id, (select count(*)::int from notifications
           where user_id = v.id and read_at is null) as count from viewer v`,
  // $2 topic, $3 body, $4 body_html, $5 mentioned logins (lower case), $6 index words, $7 the text on one line.
  // The reply is written only when every check passes; the last select says which one failed otherwise.
  createReply: `with ${VIEWER},
         topic as (select id, user_id, closed_at from topics where id = $2 and deleted_at is null),
         reply as (
           insert into replies (topic_id, user_id, body, body_html)
           select t.id, v.id, $3, $4 from topic t, viewer v where t.closed_at is null and v.role <> 'blocked'
           returning *),
         counted as (
           update topics t set replies_count = t.replies_count + 1,
             last_reply_id = greatest(t.last_reply_id, r.id),
             last_reply_user_id = case when coalesce(t.last_reply_id, 0) < r.id then r.user_id else t.last_reply_user_id end,
             last_reply_user_login = case when coalesce(t.last_reply_id, 0) < r.id
               then (select login from users where id = r.user_id) else t.last_reply_user_login end,
             replied_at = case when coalesce(t.last_reply_id, 0) < r.id then r.created_at else t.replied_at end,
             last_active_at = greatest(t.last_active_at, r.created_at)
           from reply r where t.id = r.topic_id),
         user_counted as (update users set replies_count = replies_count + 1 where id in (select user_id from reply)),
         month as (
           insert into user_reply_months (user_id, month, replies)
           select user_id, date_trunc('month', created_at at time zone 'UTC')::date, 1 from reply
           on conflict (user_id, month) do update set replies = user_reply_months.replies + 1),
         blockers as (select b.user_id from user_blocks b, reply r where b.blocked_user_id = r.user_id),
         mentioned as (
           select u.id from users u, reply r where lower(u.login) = any($5::text[]) and u.id <> r.user_id
             and u.id not in (select user_id from blockers)
             order by array_position($5::text[], lower(u.login)) limit 5),
         followers as (
           select t.user_id as id from topic t union select f.user_id from topic_follows f, topic t where f.topic_id = t.id),
         notified as (
           insert into notifications (user_id, actor_id, type, topic_id, reply_id, mention_type)
           select f.id, r.user_id, 'TopicReply', r.topic_id, r.id, null from followers f, reply r
             where f.id <> r.user_id and f.id not in (select id from mentioned) and f.id not in (select user_id from blockers)
           union all
           select m.id, r.user_id, 'Mention', r.topic_id, r.id, 'Reply' from mentioned m, reply r),
         indexed as (
           insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
           select r.topic_id, r.id, null, to_tsvector('english', $6), $7, r.created_at, r.updated_at from reply r),
         event as (
           insert into events (type, payload)
           select 'reply.created', jsonb_build_object('replyId', r.id, 'topicId', r.topic_id, 'createdAt', r.created_at,
             'at', r.updated_at) from reply r)
         select ${VIEWER_COLUMNS}, (select closed_at is not null from topic) as closed,
           r.id, r.topic_id, r.body, r.body_html, r.action, r.likes_count, false as deleted, r.created_at, r.updated_at,
           u.id as user_id, u.login as user_login, u.name as user_name, '{}'::int[] as liked_user_ids,
           (select title from topics where id = $2) as topic_title
         from (select 1) one left join reply r on true left join users u on u.id = r.user_id`,
};

async function query(name: keyof typeof statements, values: unknown[]): Promise<Record<string, any>[]> {
  return (await pool.query({ name, text: statements[name], values })).rows;
}

const iso = (value: string | null) =>
  value === null ? null : new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
const user = (id: number, login: string, name: string | null) => ({
  id,
  login,
  name,
  avatar_url: `${publicUrl}/avatars/${login}.svg`,
});

function topic(row: Record<string, any>, viewer: Viewer | null) {
  const admin = viewer?.role === 'admin';
  const owner = viewer !== null && viewer.role !== 'blocked' && viewer.id === row.user_id;
  return {
    id: row.id,
    title: row.title,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    replied_at: iso(row.replied_at),
    replies_count: row.replies_count,
    node_id: row.node_id,
    node_name: row.node_name,
    last_reply_user_id: row.last_reply_user_id,
    last_reply_user_login: row.last_reply_user_login,
    grade: row.grade,
    excellent: row.grade === 'excellent' ? 1 : 0,
    likes_count: row.likes_count,
    hits: row.hits,
    lock_node: row.lock_node,
    closed_at: iso(row.closed_at),
    deleted: false,
    user: user(row.user_id, row.user_login, row.user_name),
    abilities: {
      update: admin || owner,
      destroy: admin || (owner && !row.has_replies_from_others),
      ban: admin,
      excellent: admin,
      unexcellent: admin,
      close: admin || owner,
      open: admin || owner,
    },
  };
}

function reply(row: Record<string, any>, viewer: Viewer | null) {
  const mayEdit =
    !row.deleted &&
    row.action === null &&
    viewer !== null &&
    (viewer.role === 'admin' || (viewer.role !== 'blocked' && viewer.id === row.user_id));
  return {
    id: row.id,
    body: row.deleted ? '' : row.body,
    body_html: row.deleted ? '' : row.body_html,
    topic_id: row.topic_id,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    likes_count: row.likes_count,
    liked_user_ids: row.liked_user_ids,
    action: row.action,
    deleted: row.deleted,
    user: user(row.user_id, row.user_login, row.user_name),
    abilities: { update: mayEdit, destroy: mayEdit },
  };
}

/** The digest of the bearer token (what the statements look the caller up by), or null. */
function digestOf(req: http.IncomingMessage): string | null {
  const match = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return match ? createHash('sha256').update(match[1]!).digest('hex') : null;
}

/** The caller as the statement found it (every row carries it). */
const viewerOf = (row: Record<string, any> | undefined): Viewer | null =>
  row?.viewer_id == null ? null : { id: row.viewer_id, role: row.viewer_role };

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const positive = (value: string | null, fallback: number) => (value === null ? fallback : Number(value));

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

async function createReply(req: http.IncomingMessage, res: http.ServerResponse, digest: string | null, topicId: number) {
  const body = (JSON.parse(await readBody(req)) as { body?: unknown }).body;
  if (digest === null) return send(res, 401, { error: 'Unauthorized' });
  if (typeof body !== 'string' || body.trim() === '') return send(res, 400, { error: 'ParameterInvalid' });
  const rendered = markdown.render(body);
  const mentions = [...new Set(rendered.mentions.map((login) => login.toLowerCase()))];
  const text = readerText(htmlText, rendered.html);
  const [row] = await query('createReply', [digest, topicId, body, rendered.html, mentions, segmenter.forIndex(text), text]);
  const viewer = viewerOf(row);
  if (!viewer) return send(res, 401, { error: 'Unauthorized' });
  if (row!.closed === null) return send(res, 404, { error: 'ResourceNotFound' });
  if (row!.id === null) return send(res, row!.closed ? 400 : 403, { error: row!.closed ? 'ParameterInvalid' : 'AccessDenied' });
  send(res, 200, { reply: { ...reply(row!, viewer), topic_title: row!.topic_title } });
}

async function searchResults(url: URL, digest: string | null) {
  const q = url.searchParams.get('q') ?? '';
  const type = (url.searchParams.get('type') as 'topic' | 'reply' | null) ?? null;
  const limit = positive(url.searchParams.get('limit'), 20);
  const offset = positive(url.searchParams.get('offset'), 0);
  const [found] = digest === null ? [] : await query('viewer', [digest]);
  const viewer: Viewer | null = found ? { id: found.id, role: found.role } : null;
  const { text, values } = searchStatementFor({ words: segmenter.forQuery(q), type, offset, limit }, viewer);
  const rows = (await pool.query({ name: viewer ? 'searchUser' : 'search', text, values })).rows;
  const highlight = highlighter(rows[0]?.lexemes ?? []);
  return rows.map((row) => {
    const text = row.text ?? readerText(htmlText, row.reply ? row.reply.body_html : row.body_html);
    const parts = resultHighlight(highlight, text, row.title_match && !row.reply ? row.title : null);
    return {
      type: row.reply ? 'Reply' : 'Topic',
      topic: topic(row, viewer),
      ...(row.reply ? { reply: reply(row.reply, viewer) } : {}),
      highlight: markedText(parts),
    };
  });
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const digest = digestOf(req);
  let match: RegExpExecArray | null;

  if (url.pathname === '/api/v3/topics') {
    const limit = positive(url.searchParams.get('limit'), 20);
    const offset = positive(url.searchParams.get('offset'), 0);
    const nodeId = url.searchParams.get('node_id');
    if (nodeId) {
      const rows = await query('listNode', [digest, limit, offset, Number(nodeId)]);
      if (rows.length === 0) return send(res, 404, { error: 'ResourceNotFound' });
      const viewer = viewerOf(rows[0]);
      return send(res, 200, { topics: rows.filter((row) => row.id !== null).map((row) => topic(row, viewer)) });
    }
    const excellent = url.searchParams.get('type') === 'excellent';
    const rows = await query(excellent ? 'listExcellent' : 'list', [digest, limit, offset]);
    const viewer = viewerOf(rows[0]);
    return send(res, 200, { topics: rows.map((row) => topic(row, viewer)) });
  }
  if ((match = /^\/api\/v3\/topics\/(\d+)$/.exec(url.pathname))) {
    const [row] = await query('show', [digest, Number(match[1])]);
    if (!row) return send(res, 404, { error: 'ResourceNotFound' });
    const meta = { followed: row.followed, liked: row.liked, favorited: row.favorited };
    const shown = { ...topic(row, viewerOf(row)), body: row.body, body_html: row.body_html };
    return send(res, 200, { topic: shown, meta });
  }
  if ((match = /^\/api\/v3\/topics\/(\d+)\/replies$/.exec(url.pathname))) {
    const id = Number(match[1]);
    if (req.method === 'POST') return createReply(req, res, digest, id);
    const limit = positive(url.searchParams.get('limit'), 20);
    const rows = await query('replies', [digest, id, limit, positive(url.searchParams.get('offset'), 0)]);
    if (rows.length === 0) return send(res, 404, { error: 'ResourceNotFound' });
    const viewer = viewerOf(rows[0]);
    const page = rows.filter((row) => row.id !== null);
    const liked = page.filter((row) => row.liked).map((row) => row.id);
    return send(res, 200, { replies: page.map((row) => reply(row, viewer)), meta: { user_liked_reply_ids: liked } });
  }
  if (url.pathname === '/api/v3/notifications/unread_count') {
    const [row] = digest === null ? [] : await query('unreadCount', [digest]);
    if (!row) return send(res, 401, { error: 'Unauthorized' });
    return send(res, 200, { count: row.count });
  }
  if (url.pathname === '/api/v3/search') {
    if ((url.searchParams.get('q') ?? '').trim() === '') return send(res, 400, { error: 'ParameterInvalid' });
    return send(res, 200, { results: await searchResults(url, digest) });
  }
  if (url.pathname === '/healthz') return send(res, 200, { status: 'ok' });
  send(res, 404, { error: 'ResourceNotFound' });
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    send(res, 500, { error: 'InternalError' });
  });
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 3001), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => void pool.end()));
