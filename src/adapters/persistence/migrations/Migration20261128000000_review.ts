import { Migration } from '@mikro-orm/migrations';
import { SEARCH_FUNCTIONS_SCRIPT } from '../search/search-functions.js';

/**
 * Flags, holds and the review queue (contract §18).
 * - A post's visibility: `public`, `held` (waiting for approval) or `hidden` (flagged, waiting for review), on topics
 *   and replies. The constant default makes the column without rewriting the table; the check is added NOT VALID and
 *   validated after, which reads the table under a lock that lets writes go on.
 * - Accounts: whether it signed up itself (its first posts are held and limited; every account before this is
 *   trusted), and the ends of a silence and of a suspension (each ends by itself: compared with the time when asked).
 * - `review_items`: one per post and review, pending until a reviewer resolves it; at most one pending per post.
 *   `flags`: who flagged which post, once each (a second flag by the same person is a no-op), with the item that
 *   gathers them. A post is named by its type and id, as the audit log names its targets; its topic is kept for
 *   the items of a deleted topic's replies.
 * - The search's functions, replayed from search-functions.ts: what they may find now follows visibility too.
 *
 * Expand only: new columns with defaults, new tables, functions that read the new columns (a server of the release
 * before never calls them with anything but public posts).
 */
export class Migration20261128000000_review extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table topics add column visibility varchar(8) not null default 'public';
      alter table topics add constraint topics_visibility_check check (visibility in ('public', 'held', 'hidden')) not valid;
      alter table topics validate constraint topics_visibility_check;
      alter table replies add column visibility varchar(8) not null default 'public';
      alter table replies add constraint replies_visibility_check check (visibility in ('public', 'held', 'hidden')) not valid;
      alter table replies validate constraint replies_visibility_check;

      alter table users
        add column self_registered boolean not null default false,
        add column silenced_until timestamptz(3),
        add column suspended_until timestamptz(3);

      create table review_items (
        id serial primary key,
        kind varchar(8) not null check (kind in ('flag', 'hold')),
        target_type varchar(8) not null check (target_type in ('Topic', 'Reply')),
        target_id integer not null,
        topic_id integer not null,
        user_id integer not null references users (id),
        status varchar(10) not null default 'pending' check (status in ('pending', 'resolved')),
        resolution varchar(10) check (resolution in ('agree', 'disagree', 'approve', 'reject', 'spammer', 'deleted')),
        reason text,
        created_at timestamptz(3) not null,
        resolved_at timestamptz(3),
        resolved_by_id integer references users (id),
        check ((status = 'resolved') = (resolution is not null and resolved_at is not null))
      );
      create unique index review_items_pending_target on review_items (target_type, target_id) where status = 'pending';
      create index review_items_pending on review_items (created_at, id) where status = 'pending';
      create index review_items_resolved on review_items (resolved_at desc, id desc) where status = 'resolved';
      create index review_items_topic on review_items (topic_id) where status = 'pending';
      create index review_items_user on review_items (user_id);

      create table flags (
        id serial primary key,
        review_item_id integer not null references review_items (id) on delete cascade,
        target_type varchar(8) not null check (target_type in ('Topic', 'Reply')),
        target_id integer not null,
        user_id integer not null references users (id),
        reason varchar(16) not null check (reason in ('spam', 'inappropriate', 'off_topic', 'other')),
        message varchar(500),
        created_at timestamptz(3) not null
      );
      create unique index flags_once on flags (target_type, target_id, user_id);
      create index flags_item on flags (review_item_id, id);
    `);
    this.addSql(SEARCH_FUNCTIONS_SCRIPT);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop table flags;
      drop table review_items;
      alter table users drop column suspended_until, drop column silenced_until, drop column self_registered;
      alter table replies drop column visibility;
      alter table topics drop column visibility;
    `);
  }
}
