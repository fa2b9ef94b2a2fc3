import { Migration } from '@mikro-orm/migrations';

/**
 * The one recorder of notification events (issue 30): the statement triggers that keep the unread counts
 * (Migration20261124070000_unread_counts) also append the event that says what changed, to the same outbox as
 * every other event, in the same statement as the change:
 * - `notification.created` with each new notification's id and user;
 * - `notification.read` with the users whose notifications a statement marked read;
 * - `notification.deleted` with the users whose notifications a statement deleted (a user deleted with their
 *   notifications, a cascade, is left out: nobody is listening for them).
 * Every statement that writes notifications is covered, whoever sends it (a reply, a topic view, a purge, a
 * cascade), so no use case records these events by hand, and none can forget to. The counts are upserted in user
 * order, as before: two statements that change the same users' counts wait for each other, never deadlock.
 */
export class Migration20261126010000_notification_events extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create or replace function notification_unread_counts_follow() returns trigger language plpgsql as $$
      begin
        -- A statement that touched no notification (most writes stage a delete or an insert that finds none)
        -- has nothing to count or announce: leave at once.
        if tg_op = 'INSERT' then
          if not exists (select 1 from added) then return null; end if;
          insert into notification_unread_counts as c (user_id, count)
            select user_id, count(*) from added where read_at is null group by user_id order by user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
          insert into events (type, payload)
            select 'notification.created',
                   jsonb_build_object('notifications', jsonb_agg(jsonb_build_object('id', id, 'userId', user_id) order by id))
            from added having count(*) > 0;
        elsif tg_op = 'DELETE' then
          if not exists (select 1 from removed) then return null; end if;
          insert into notification_unread_counts as c (user_id, count)
            select r.user_id, -count(*) from removed r
            where r.read_at is null and exists (select 1 from users u where u.id = r.user_id)
            group by r.user_id order by r.user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
          insert into events (type, payload)
            select 'notification.deleted', jsonb_build_object('userIds', jsonb_agg(distinct r.user_id order by r.user_id))
            from removed r where exists (select 1 from users u where u.id = r.user_id) having count(*) > 0;
        else
          if not exists (select 1 from added) then return null; end if;
          insert into notification_unread_counts as c (user_id, count)
            select user_id, sum(change) from (
              select user_id, 1 as change from added where read_at is null
              union all
              select user_id, -1 from removed where read_at is null) changes
            group by user_id having sum(change) <> 0 order by user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
          insert into events (type, payload)
            select 'notification.read', jsonb_build_object('userIds', jsonb_agg(distinct a.user_id order by a.user_id))
            from added a join removed r on r.id = a.id
            where r.read_at is null and a.read_at is not null having count(*) > 0;
        end if;
        return null;
      end $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create or replace function notification_unread_counts_follow() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into notification_unread_counts as c (user_id, count)
            select user_id, count(*) from added where read_at is null group by user_id order by user_id
            on conflict (user_id) do update set count = c.count + excluded.count;
        elsif tg_op = 'DELETE' then
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
    `);
  }
}
