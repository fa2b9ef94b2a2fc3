/**
 * The reference for `npm run bench`: the least a server can do to answer the same requests with the same JSON
 * from the same database work. Plain node:http and a pg pool with named prepared statements; no framework, no
 * ORM, no logging. It serves the topic list, topic show (with the hits and mark-read writes) and the reply list.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const publicUrl = process.env.PUBLIC_URL ?? 'http://127.0.0.1';

// Timestamps as the text PostgreSQL prints; turned into ISO 8601 only when written out.
pg.types.setTypeParser(1184, (value) => value);

interface Viewer {
  id: number;
  role: string;
}

const TOPIC = `t.id, t.title, t.created_at, t.updated_at, t.replied_at, t.replies_count, t.node_id, n.name as node_name,
  t.last_reply_user_id, t.last_reply_user_login, t.grade, t.likes_count, t.hits, t.lock_node, t.closed_at,
  u.id as user_id, u.login as user_login, u.name as user_name,
  case when t.user_id = $1 then exists(select 1 from replies r where r.topic_id = t.id and r.user_id <> t.user_id
    and r.action is null and r.deleted_at is null) else false end as has_replies_from_others`;

const statements = {
  viewer: `select u.id, u.role from oauth_tokens t join users u on u.id = t.user_id
           where t.access_digest = $1 and t.revoked_at is null and t.expires_at > now()`,
  listAnonymous: `select ${TOPIC} from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
           where t.deleted_at is null and not n.hidden order by t.last_active_at desc, t.id desc limit $2 offset $3`,
  listExcellent: `select ${TOPIC} from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
           where t.deleted_at is null and not n.hidden and t.grade = 'excellent' order by t.id desc limit $2 offset $3`,
  listNode: `select ${TOPIC} from topics t join users u on u.id = t.user_id join nodes n on n.id = t.node_id
           where t.deleted_at is null and t.node_id = $4 order by t.last_active_at desc, t.id desc limit $2 offset $3`,
  nodeExists: 'select 1 from nodes where id = $1',
  show: `with t as (update topics set hits = hits + 1 where id = $2 and deleted_at is null returning *)
         select ${TOPIC}, t.body, t.body_html,
           exists(select 1 from topic_follows f where f.topic_id = t.id and f.user_id = $1) as followed,
           exists(select 1 from likes l where l.target_type = 'topic' and l.target_id = t.id and l.user_id = $1) as liked,
           exists(select 1 from topic_favorites f where f.topic_id = t.id and f.user_id = $1) as favorited
         from t join users u on u.id = t.user_id join nodes n on n.id = t.node_id`,
  markRead: `update notifications set read_at = now(), updated_at = now()
             where user_id = $1 and topic_id = $2 and read_at is null`,
  topicVisible: 'select 1 from topics where id = $1 and deleted_at is null',
  replies: `select r.id, r.topic_id, r.body, r.body_html, r.action, r.likes_count, r.deleted_at is not null as deleted,
              r.created_at, r.updated_at, u.id as user_id, u.login as user_login, u.name as user_name,
              array(select l.user_id from likes l where l.target_type = 'reply' and l.target_id = r.id
                    order by l.created_at, l.user_id) as liked_user_ids,
              exists(select 1 from likes l where l.target_type = 'reply' and l.target_id = r.id and l.user_id = $1) as liked
            from replies r join users u on u.id = r.user_id where r.topic_id = $2 order by r.id limit $3 offset $4`,
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

async function viewerOf(req: http.IncomingMessage): Promise<Viewer | null> {
  const match = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!match) return null;
  const rows = await query('viewer', [createHash('sha256').update(match[1]!).digest('hex')]);
  return (rows[0] as Viewer | undefined) ?? null;
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

const positive = (value: string | null, fallback: number) => (value === null ? fallback : Number(value));

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const viewer = await viewerOf(req);
  const viewerId = viewer?.id ?? null;
  let match: RegExpExecArray | null;

  if (url.pathname === '/api/v3/topics') {
    const limit = positive(url.searchParams.get('limit'), 20);
    const offset = positive(url.searchParams.get('offset'), 0);
    const nodeId = url.searchParams.get('node_id');
    let rows;
    if (nodeId) {
      if ((await query('nodeExists', [Number(nodeId)])).length === 0) return send(res, 404, { error: 'ResourceNotFound' });
      rows = await query('listNode', [viewerId, limit, offset, Number(nodeId)]);
    } else {
      rows = await query(url.searchParams.get('type') === 'excellent' ? 'listExcellent' : 'listAnonymous', [
        viewerId,
        limit,
        offset,
      ]);
    }
    return send(res, 200, { topics: rows.map((row) => topic(row, viewer)) });
  }
  if ((match = /^\/api\/v3\/topics\/(\d+)$/.exec(url.pathname))) {
    const id = Number(match[1]);
    const [row] = await query('show', [viewerId, id]);
    if (!row) return send(res, 404, { error: 'ResourceNotFound' });
    if (viewer) await query('markRead', [viewer.id, id]);
    const meta = { followed: row.followed, liked: row.liked, favorited: row.favorited };
    return send(res, 200, { topic: { ...topic(row, viewer), body: row.body, body_html: row.body_html }, meta });
  }
  if ((match = /^\/api\/v3\/topics\/(\d+)\/replies$/.exec(url.pathname))) {
    const id = Number(match[1]);
    if ((await query('topicVisible', [id])).length === 0) return send(res, 404, { error: 'ResourceNotFound' });
    const rows = await query('replies', [
      viewerId,
      id,
      positive(url.searchParams.get('limit'), 20),
      positive(url.searchParams.get('offset'), 0),
    ]);
    const liked = rows.filter((row) => row.liked).map((row) => row.id);
    return send(res, 200, { replies: rows.map((row) => reply(row, viewer)), meta: { user_liked_reply_ids: liked } });
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
