import { Migration } from '@mikro-orm/migrations';

/**
 * The whole first schema. Counters are plain integer columns changed by atomic SQL. Partial indexes serve the
 * topic list orderings on visible rows only. `NoPoint` (where banned topics go) and the `system` moderator
 * (forumctl's default actor) exist from here on.
 */
export class Migration20261121000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table users (
        id serial primary key,
        login varchar(20) not null,
        name varchar(100),
        email varchar(255) not null,
        password_hash text,
        role varchar(16) not null default 'member' check (role in ('member', 'admin', 'blocked')),
        location varchar(255), company varchar(255), twitter varchar(255), github varchar(255),
        website varchar(255), tagline varchar(255), bio text,
        topics_count integer not null default 0,
        replies_count integer not null default 0,
        followers_count integer not null default 0,
        following_count integer not null default 0,
        favorites_count integer not null default 0,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create unique index users_login_key on users (lower(login));
      create unique index users_email_key on users (lower(email));

      create table nodes (
        id serial primary key,
        name varchar(100) not null,
        summary text not null default '',
        sort integer not null default 0,
        hidden boolean not null default false,
        topics_count integer not null default 0,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create unique index nodes_name_key on nodes (lower(name));
      create index nodes_sort_idx on nodes (sort desc, id);

      create table topics (
        id serial primary key,
        user_id integer not null references users (id),
        node_id integer not null references nodes (id),
        title varchar(255) not null,
        body text not null,
        body_html text not null,
        lock_node boolean not null default false,
        grade varchar(16) not null default 'normal' check (grade in ('normal', 'excellent')),
        closed_at timestamptz(3),
        deleted_at timestamptz(3),
        deleted_by_id integer references users (id),
        hits integer not null default 0,
        likes_count integer not null default 0,
        replies_count integer not null default 0,
        replied_at timestamptz(3),
        last_reply_id integer,
        last_reply_user_id integer references users (id),
        last_reply_user_login varchar(20),
        last_active_at timestamptz(3) not null default now(),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index topics_active_idx on topics (last_active_at desc, id desc) where deleted_at is null;
      create index topics_node_active_idx on topics (node_id, last_active_at desc, id desc) where deleted_at is null;
      create index topics_node_recent_idx on topics (node_id, id desc) where deleted_at is null;
      create index topics_excellent_idx on topics (id desc) where deleted_at is null and grade = 'excellent';
      create index topics_popular_idx on topics (last_active_at desc, id desc) where deleted_at is null and likes_count > 5;
      create index topics_no_reply_idx on topics (last_active_at desc, id desc) where deleted_at is null and replies_count = 0;
      create index topics_user_idx on topics (user_id, id desc);

      create table replies (
        id serial primary key,
        topic_id integer not null references topics (id),
        user_id integer not null references users (id),
        body text not null,
        body_html text not null,
        action varchar(16) check (action in ('ban', 'excellent', 'unexcellent', 'close', 'reopen')),
        likes_count integer not null default 0,
        deleted_at timestamptz(3),
        deleted_by_id integer references users (id),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index replies_topic_idx on replies (topic_id, id);
      create index replies_user_idx on replies (user_id, id desc);

      create table likes (
        target_type varchar(8) not null check (target_type in ('topic', 'reply')),
        target_id integer not null,
        user_id integer not null references users (id) on delete cascade,
        created_at timestamptz(3) not null default now(),
        primary key (target_type, target_id, user_id)
      );
      create index likes_user_idx on likes (user_id, target_type, target_id);

      create table topic_follows (
        topic_id integer not null references topics (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        created_at timestamptz(3) not null default now(),
        primary key (topic_id, user_id)
      );
      create table topic_favorites (
        user_id integer not null references users (id) on delete cascade,
        topic_id integer not null references topics (id) on delete cascade,
        created_at timestamptz(3) not null default now(),
        primary key (user_id, topic_id)
      );
      create table user_follows (
        follower_id integer not null references users (id) on delete cascade,
        followee_id integer not null references users (id) on delete cascade,
        created_at timestamptz(3) not null default now(),
        primary key (follower_id, followee_id)
      );
      create index user_follows_followee_idx on user_follows (followee_id, follower_id);
      create table user_blocks (
        user_id integer not null references users (id) on delete cascade,
        blocked_user_id integer not null references users (id) on delete cascade,
        created_at timestamptz(3) not null default now(),
        primary key (user_id, blocked_user_id)
      );
      create table node_blocks (
        user_id integer not null references users (id) on delete cascade,
        node_id integer not null references nodes (id) on delete cascade,
        created_at timestamptz(3) not null default now(),
        primary key (user_id, node_id)
      );

      create table notifications (
        id serial primary key,
        user_id integer not null references users (id) on delete cascade,
        actor_id integer references users (id) on delete set null,
        type varchar(32) not null check (type in ('TopicReply', 'Mention', 'NodeChanged', 'Topic', 'Follow')),
        topic_id integer references topics (id) on delete cascade,
        reply_id integer references replies (id) on delete cascade,
        node_id integer references nodes (id) on delete cascade,
        mention_type varchar(8) check (mention_type in ('Topic', 'Reply')),
        read_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index notifications_user_idx on notifications (user_id, id desc);
      create index notifications_unread_idx on notifications (user_id, topic_id) where read_at is null;
      create index notifications_topic_idx on notifications (topic_id);

      create table oauth_clients (
        id serial primary key,
        name varchar(100) not null,
        uid varchar(64) not null unique,
        secret_digest char(64) not null,
        redirect_uri text,
        created_at timestamptz(3) not null default now()
      );
      create table oauth_tokens (
        id serial primary key,
        access_digest char(64) not null unique,
        refresh_digest char(64) unique,
        client_id integer references oauth_clients (id) on delete cascade,
        user_id integer references users (id) on delete cascade,
        scope varchar(64) not null default 'all',
        expires_at timestamptz(3) not null,
        revoked_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );
      create index oauth_tokens_user_idx on oauth_tokens (user_id);

      insert into nodes (name, summary, hidden, sort) values ('NoPoint', 'Topics moved here by a ban.', true, -1000);
      insert into users (login, name, email, role) values ('system', 'System', 'system@forum.invalid', 'admin');
    `);
  }
}
