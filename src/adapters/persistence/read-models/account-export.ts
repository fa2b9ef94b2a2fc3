import type { AccountExport, AuthoredContent } from '../../../application/accounts/leaving.js';
import type { Sql } from '../database/sql.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { conversationsMaybeOf } from '../conversations/conversation-read-model.js';
import { SIGNED_OUT, forumTopic, readerOf, replyCondition, topicCondition } from './visibility.js';

/** What the user wrote in the forum, whatever its state (READERS.written): a conversation's messages are not there. */
const writtenTopic = (alias: string) => topicCondition(READERS.written, SIGNED_OUT, { topic: alias });
const writtenReply = (alias: string) => replyCondition(READERS.written, SIGNED_OUT, alias);

/** The exported user (`u`), as the conversation reader of the visibility policy reads them. */
const PARTICIPANT = readerOf('u.id');

/**
 * The conversations the user takes part in now (contract §24), as they read them (READERS.conversation): who takes
 * part (logins, and the groups named), and the messages they may read, the opening one first. One they left is no
 * longer theirs to read, so not theirs to export; what they wrote there stays with its other participants.
 */
const CONVERSATIONS = `coalesce((select json_agg(json_build_object(
        'id', t.id, 'title', t.title, 'created_at', t.created_at,
        'participants', coalesce((select json_agg(pu.login order by cp.created_at, pu.id)
          from conversation_participants cp join users pu on pu.id = cp.user_id
          where cp.topic_id = t.id and cp.left_at is null), '[]'),
        'groups', coalesce((select json_agg(g.name order by g.name)
          from conversation_participants cp join groups g on g.id = cp.group_id where cp.topic_id = t.id), '[]'),
        'messages', (select json_agg(json_build_object(
            'user', json_build_object('id', m.user_id, 'login', m.login), 'body', m.body, 'created_at', m.created_at)
            order by m.reply_id nulls first)
          from (select null::int as reply_id, t.user_id, tu.login, t.body, t.created_at from users tu where tu.id = t.user_id
                union all
                select r.id, r.user_id, ru.login, r.body, r.created_at from replies r join users ru on ru.id = r.user_id
                where r.topic_id = t.id and ${replyCondition(READERS.conversation, PARTICIPANT, 'r')}) m)
      ) order by t.id)
      from topics t where t.id in (${conversationsMaybeOf('u.id')})
        and ${topicCondition(READERS.conversation, PARTICIPANT, { topic: 't' })}), '[]')`;

/**
 * A user's data export (contract §16c) in one statement: each part a JSON array built by PostgreSQL, in the
 * order it happened. Secrets never: tokens and sessions as metadata (when, which app, until when), no digest.
 * Topics and replies are the forum's; the conversations the user takes part in are a part of their own.
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
      from topics t where t.user_id = u.id and ${writtenTopic('t')}), '[]'),
    'replies', coalesce((select json_agg(json_build_object(
        'id', r.id, 'topic_id', r.topic_id, 'body', r.body, 'visibility', r.visibility, 'created_at', r.created_at,
        'updated_at', r.updated_at, 'deleted_at', r.deleted_at) order by r.id)
      from replies r join topics t on t.id = r.topic_id
      where r.user_id = u.id and ${writtenReply('r')} and ${writtenTopic('t')}), '[]'),
    'conversations', ${CONVERSATIONS},
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
        'id', o.id, 'application', c.name, 'name', o.name, 'scope', o.scope, 'created_at', o.created_at,
        'expires_at', nullif(o.expires_at, 'infinity'), 'last_used_at', o.last_used_at, 'revoked_at', o.revoked_at) order by o.id)
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

  /** Never a conversation (READERS.standing holds topics to the forum's). */
  async topicIds(userId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select id from topics t where t.user_id = $1 and ${topicCondition(READERS.standing, SIGNED_OUT, { topic: 't' })} order by id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }

  /** In the forum's topics: a conversation's messages stay with its other participants (contract §24). */
  async replyIds(userId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select r.id from replies r join topics t on t.id = r.topic_id
       where r.user_id = $1 and ${replyCondition(READERS.standing, SIGNED_OUT, 'r')} and ${forumTopic('t')} order by r.id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }
}
