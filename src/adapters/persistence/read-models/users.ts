import type { Sql } from '../database/sql.js';
import type {
  FollowDirection,
  Page,
  UserDetailView,
  UserReadModel,
  UserRelationView,
  UserView,
} from '../../../application/read-models.js';
import {
  couldBeLogin,
  type EmailDigest,
  type EmailMessages,
  type EmailNotifications,
  type Locale,
  type MailPreferences,
} from '../../../domain/users/user.js';
import type { PendingAccount, PendingAccounts } from '../../../application/accounts/approval.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import type { Viewer } from '../../../domain/users/role.js';
import { SIGNED_OUT, countedTopic, nodeCondition, readerAs } from './visibility.js';

/** Users: profiles, relations between two users, follows, blocks, the most active. */

interface UserRow {
  id: number;
  login: string;
  name: string | null;
  email: string;
  email_public: boolean;
  role: UserDetailView['role'];
  created_at: Timestamp;
  topics_count: number;
  replies_count: number;
  followers_count: number;
  following_count: number;
  favorites_count: number;
  location: string | null;
  company: string | null;
  twitter: string | null;
  github: string | null;
  website: string | null;
  tagline: string | null;
  bio: string | null;
  silenced_until: Timestamp | null;
  suspended_until: Timestamp | null;
  groups: string[];
}

/**
 * A user's columns, from `users` (unaliased), with the names of their groups that are not hidden, by name (contract
 * §23: an index probe on group_members' key, in the same statement).
 */
const USER_COLUMNS = `id, login, name, email, email_public, role, created_at, topics_count, replies_count, followers_count, following_count,
  favorites_count, location, company, twitter, github, website, tagline, bio, silenced_until, suspended_until,
  array(select g.name::text from group_members gm join groups g on g.id = gm.group_id
    where gm.user_id = users.id and not g.hidden order by lower(g.name)) as groups`;

function userDetailView(row: UserRow): UserDetailView {
  return {
    id: row.id,
    login: row.login,
    name: row.name,
    email: row.email,
    emailPublic: row.email_public,
    role: row.role,
    createdAt: toDate(row.created_at),
    topicsCount: row.topics_count,
    repliesCount: row.replies_count,
    followersCount: row.followers_count,
    followingCount: row.following_count,
    favoritesCount: row.favorites_count,
    location: row.location,
    company: row.company,
    twitter: row.twitter,
    github: row.github,
    website: row.website,
    tagline: row.tagline,
    bio: row.bio,
    groups: row.groups,
    silencedUntil: toDate(row.silenced_until),
    suspendedUntil: toDate(row.suspended_until),
  };
}

export class SqlUserReadModel implements UserReadModel {
  constructor(private readonly sql: Sql) {}

  async preferences(id: number): Promise<MailPreferences | null> {
    const rows = await this.sql.all<{
      email_notifications: EmailNotifications;
      email_digest: EmailDigest;
      email_messages: EmailMessages;
      locale: Locale;
    }>('select email_notifications, email_digest, email_messages, locale from users where id = $1', [id]);
    const row = rows[0];
    return row
      ? {
          emailNotifications: row.email_notifications,
          emailDigest: row.email_digest,
          emailMessages: row.email_messages,
          locale: row.locale,
        }
      : null;
  }

  async byId(id: number): Promise<UserDetailView | null> {
    const rows = await this.sql.all<UserRow>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
    return rows[0] ? userDetailView(rows[0]) : null;
  }

  async byLogin(login: string): Promise<UserDetailView | null> {
    if (!couldBeLogin(login)) return null;
    const rows = await this.sql.all<UserRow>(`select ${USER_COLUMNS} from users where lower(login) = lower($1)`, [login]);
    return rows[0] ? userDetailView(rows[0]) : null;
  }

  async topicsUnseenBy(userId: number, viewer: Viewer | null): Promise<number> {
    const rows = await this.sql.all<{ count: number }>(
      `select count(*)::int as count from topics t join nodes n on n.id = t.node_id
       where t.user_id = $1 and not ${nodeCondition(SIGNED_OUT, 'n')} and ${countedTopic('t')}
         and not ${nodeCondition(readerAs(viewer, '$2::int'), 'n')}`,
      [userId, viewer?.id ?? null],
    );
    return rows[0]!.count;
  }

  async relation(viewerId: number, userId: number): Promise<UserRelationView> {
    const rows = await this.sql.all<UserRelationView>(
      `select exists(select 1 from user_follows where follower_id = $1 and followee_id = $2) as followed,
              exists(select 1 from user_blocks where user_id = $1 and blocked_user_id = $2) as blocked`,
      [viewerId, userId],
    );
    return rows[0]!;
  }

  async follows(userId: number, direction: FollowDirection, page: Page): Promise<UserView[]> {
    const [listed, of] = direction === 'followers' ? ['follower_id', 'followee_id'] : ['followee_id', 'follower_id'];
    return this.sql.all<UserView>(
      `select u.id, u.login, u.name from user_follows f join users u on u.id = f.${listed}
       where f.${of} = $1 order by f.created_at, u.id limit $2 offset $3`,
      [userId, page.limit, page.offset],
    );
  }

  async list(offset: number, limit: number): Promise<UserDetailView[]> {
    const rows = await this.sql.all<UserRow>(`select ${USER_COLUMNS} from users order by id limit $1 offset $2`, [limit, offset]);
    return rows.map(userDetailView);
  }

  mostActive(since: Date, limit: number): Promise<UserView[]> {
    return this.sql.all<UserView>(
      `with recent as (
         select user_id, sum(replies)::int as replies from user_reply_months
         where month >= date_trunc('month', $1::timestamptz at time zone 'UTC')::date group by user_id)
       select u.id, u.login, u.name from users u left join recent r on r.user_id = u.id
       where u.role <> 'blocked' and u.login <> 'system'
       order by coalesce(r.replies, 0) desc, u.topics_count desc, u.id
       limit $2`,
      [since, limit],
    );
  }

  blockedBy(userId: number, page: Page): Promise<UserView[]> {
    return this.sql.all<UserView>(
      `select u.id, u.login, u.name from user_blocks b join users u on u.id = b.blocked_user_id
       where b.user_id = $1 order by b.created_at, u.id limit $2 offset $3`,
      [userId, page.limit, page.offset],
    );
  }
}

/** The approval queue: accounts whose address is confirmed and that wait for an administrator, oldest first. */
export class SqlPendingAccounts implements PendingAccounts {
  constructor(private readonly sql: Sql) {}

  async list(offset: number, limit: number): Promise<PendingAccount[]> {
    const rows = await this.sql.all<{ id: number; login: string; name: string | null; email: string; created_at: Timestamp }>(
      `select id, login, name, email, created_at from users where state = 'pending' order by created_at, id offset $1 limit $2`,
      [offset, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      login: row.login,
      name: row.name,
      email: row.email,
      createdAt: toDate(row.created_at),
    }));
  }
}
