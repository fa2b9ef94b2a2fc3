import { Migration } from '@mikro-orm/migrations';

/**
 * Each user's count of unread notifications, kept by triggers on `notifications` (issue 18): the unread count
 * reads one row instead of counting the user's unread notifications, which grow with the forum.
 *
 * Triggers rather than code at each write: notifications are written, marked read and deleted by many
 * statements (replies, mentions, follows, a topic view, deletes, purges, cascades from topics and replies), and
 * a count missed by one of them would be wrong for good. They fire once per statement, with the statement's
 * rows in transition tables, and add each user's change in one upsert, in user order: two transactions that
 * change the counts of the same users lock their rows in the same order, so they wait for each other rather
 * than deadlock. The counts live in a table of their own, not in `users`, whose rows a reply locks for its
 * author's counters in another order. `forumctl maintenance recount` checks them like every other counter.
 */
export class Migration20261124070000_unread_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- No notification is written, read or deleted until the counts below are complete and followed.
      lock table notifications in share row exclusive mode;

      create table notification_unread_counts (
        user_id integer primary key references users (id) on delete cascade,
        count integer not null
      );

      create function notification_unread_counts_follow() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into notification_unread_counts as c (user_id, count)
            select user_id, count(*) from added where read_at is null group by user_id order by user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
        elsif tg_op = 'DELETE' then
          -- A user deleted with their notifications (a cascade) has no count left to change.
          insert into notification_unread_counts as c (user_id, count)
            select r.user_id, -count(*) from removed r
            where r.read_at is null and exists (select 1 from users u where u.id = r.user_id)
            group by r.user_id order by r.user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
        else
          insert into notification_unread_counts as c (user_id, count)
            select user_id, sum(change) from (
              select user_id, 1 as change from added where read_at is null
              union all
              select user_id, -1 from removed where read_at is null) changes
            group by user_id having sum(change) <> 0 order by user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
        end if;
        return null;
      end $$;

      create trigger notifications_unread_added after insert on notifications
        referencing new table as added for each statement execute function notification_unread_counts_follow();
      create trigger notifications_unread_changed after update on notifications
        referencing old table as removed new table as added for each statement execute function notification_unread_counts_follow();
      create trigger notifications_unread_removed after delete on notifications
        referencing old table as removed for each statement execute function notification_unread_counts_follow();

      insert into notification_unread_counts (user_id, count)
        select user_id, count(*) from notifications where read_at is null group by user_id;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger notifications_unread_added on notifications;
      drop trigger notifications_unread_changed on notifications;
      drop trigger notifications_unread_removed on notifications;
      drop function notification_unread_counts_follow();
      drop table notification_unread_counts;
    `);
  }
}
