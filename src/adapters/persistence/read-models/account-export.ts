import type { AccountExport, AuthoredContent } from '../../../application/accounts/leaving.js';
import type { Sql } from '../database/sql.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { SIGNED_OUT, replyCondition, topicCondition } from './visibility.js';

/**
 * A user's data export (contract §16c) in one statement: each part a JSON array built by PostgreSQL, in the
 * order it happened. Secrets never: tokens and sessions as metadata (when, which app, until when), no digest.
 */
const EXPORT = `
  select json_build_object(
    'exported_at', now(),
    'profile', (select json_build_object(
        'id', u.id, 'login', u.login, 'name', u.name, 'email', u.email, 'email_public', u.email_public,
        'role', u.role, 'state', u.state, 'locale', u.locale, 'location', u.location, 'company', u.company,
        'twitter', u.twitter, 'github', u.github, 'website', u.website, 'tagline', u.tagline, 'bio', u.bio,
        'silenced_until', u.silenced_until, 'suspended_until', u.suspended_until,
        'created_at', u.created_at, 'updated_at', u.updated_at)),
    'topics', coalesce((select json_agg(json_build_object(
        'id', t.id, 'title', t.title, 'body', t.body, 'node_id', t.node_id, 'visibility', t.visibility,
        'created_at', t.created_at, 'updated_at', t.updated_at, 'deleted_at', t.deleted_at) order by t.id)
      from topics t where t.user_id = u.id), '[]'),
    'replies', coalesce((select json_agg(json_build_object(
        'id', r.id, 'topic_id', r.topic_id, 'body', r.body, 'visibility', r.visibility, 'created_at', r.created_at,
        'updated_at', r.updated_at, 'deleted_at', r.deleted_at) order by r.id)
      from replies r where r.user_id = u.id and r.action is null), '[]'),
    'likes', coalesce((select json_agg(json_build_object('type', l.target_type, 'id', l.target_id, 'created_at', l.created_at)
        order by l.created_at) from likes l where l.user_id = u.id), '[]'),
    'following', coalesce((select json_agg(json_build_object('login', f2.login, 'created_at', f.created_at) order by f.created_at)
      from user_follows f join users f2 on f2.id = f.followee_id where f.follower_id = u.id), '[]'),
    'followers', coalesce((select json_agg(json_build_object('login', f2.login, 'created_at', f.created_at) order by f.created_at)
      from user_follows f join users f2 on f2.id = f.follower_id where f.followee_id = u.id), '[]'),
    'followed_topics', coalesce((select json_agg(json_build_object('topic_id', f.topic_id, 'created_at', f.created_at)
        order by f.created_at) from topic_follows f where f.user_id = u.id), '[]'),
    'favorites', coalesce((select json_agg(json_build_object('topic_id', f.topic_id, 'created_at', f.created_at)
        order by f.created_at) from topic_favorites f where f.user_id = u.id), '[]'),
    'uploads', coalesce((select json_agg(json_build_object(
        'id', p.id, 'name', p.name, 'content_type', p.content_type, 'byte_size', p.byte_size, 'sha256', p.sha256,
        'width', p.width, 'height', p.height, 'created_at', p.created_at,
        'user', json_build_object('id', u.id, 'login', u.login)) order by p.id)
      from uploads p where p.user_id = u.id), '[]'),
    'flags', coalesce((select json_agg(json_build_object(
        'target_type', f.target_type, 'target_id', f.target_id, 'reason', f.reason, 'message', f.message,
        'created_at', f.created_at) order by f.id) from flags f where f.user_id = u.id), '[]'),
    'blocked_nodes', coalesce((select json_agg(b.node_id order by b.node_id) from node_blocks b where b.user_id = u.id), '[]'),
    'blocked_users', coalesce((select json_agg(b2.login order by b2.login)
      from user_blocks b join users b2 on b2.id = b.blocked_user_id where b.user_id = u.id), '[]'),
    'notifications', coalesce((select json_agg(json_build_object(
        'id', n.id, 'type', n.type, 'topic_id', n.topic_id, 'reply_id', n.reply_id, 'read_at', n.read_at,
        'created_at', n.created_at) order by n.id) from notifications n where n.user_id = u.id), '[]'),
    'devices', coalesce((select json_agg(json_build_object('platform', d.platform, 'token', d.token, 'created_at', d.created_at)
        order by d.id) from devices d where d.user_id = u.id), '[]'),
    'tokens', coalesce((select json_agg(json_build_object(
        'id', o.id, 'application', c.name, 'scope', o.scope, 'created_at', o.created_at, 'expires_at', o.expires_at,
        'revoked_at', o.revoked_at) order by o.id)
      from oauth_tokens o left join oauth_clients c on c.id = o.client_id where o.user_id = u.id), '[]'),
    'sessions', coalesce((select json_agg(json_build_object('created_at', s.created_at, 'expires_at', s.expires_at)
        order by s.id) from web_sessions s where s.user_id = u.id), '[]'),
    'audit', coalesce((select json_agg(json_build_object(
        'action', a.action, 'target_type', a.target_type, 'target_id', a.target_id, 'reason', a.reason,
        'by_you', a.actor_id = u.id, 'created_at', a.created_at) order by a.id)
      from audit_entries a where a.actor_id = u.id or (a.target_type = 'User' and a.target_id = u.id)
        or (a.target_type = 'Topic' and a.target_id in (select id from topics where user_id = u.id))
        or (a.target_type = 'Reply' and a.target_id in (select id from replies where user_id = u.id))), '[]')
  ) as document
  from users u where u.id = $1`;

export class SqlAccountExport implements AccountExport, AuthoredContent {
  constructor(private readonly sql: Sql) {}

  async of(userId: number): Promise<Record<string, unknown> | null> {
    const rows = await this.sql.all<{ document: Record<string, unknown> }>(EXPORT, [userId]);
    return rows[0]?.document ?? null;
  }

  async topicIds(userId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select id from topics t where t.user_id = $1 and ${topicCondition(READERS.standing, SIGNED_OUT, { topic: 't' })} order by id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }

  async replyIds(userId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select id from replies r where r.user_id = $1 and ${replyCondition(READERS.standing, SIGNED_OUT, 'r')} order by id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }
}
