import { Migration } from '@mikro-orm/migrations';

/**
 * Each user's groups on their own row (`users.group_ids`, contract §23), for the readers: who may read in a node that
 * names groups, and who moderates one, is asked of every reader in every statement that shows posts. Asked of
 * `group_members`, each such statement carried a subplan per place it asks (its executor opened the table and its
 * index at every run, even where no node names a group): a reread of a reply page lost a tenth of its speed to them.
 * Read off the caller's row, which every statement already finds, the question costs nothing.
 *
 * `group_members` stays what memberships are; the array is derived data, kept by statement triggers with no decision
 * in them (as the unread counts are): a membership is written by the groups' use cases, the homeland import, a
 * cascade from a group or a user, and, during a rolling deploy, the previous release, and an array missed by one of
 * them would be wrong for good. Each trigger changes the arrays of the users its statement touched, by their change
 * (an array recomputed from the table would lose a membership written at the same time by another transaction), one
 * user at a time in user order, as every writer of `users` locks them.
 */
export class Migration20261130010000_member_group_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      -- No membership is written until the arrays below are complete and followed.
      lock table group_members in share row exclusive mode;

      alter table users add column group_ids integer[] not null default '{}';

      create function users_group_ids_follow() returns trigger language plpgsql as $$
      declare
        joined constant text := 'select user_id, group_id, true as joined from added';
        gone constant text := 'select user_id, group_id, false as joined from removed';
        change record;
      begin
        for change in execute format(
            'select user_id, coalesce(array_agg(group_id) filter (where joined), ''{}'') as joined_ids,
                    coalesce(array_agg(group_id) filter (where not joined), ''{}'') as left_ids
             from (%s) changes group by user_id order by user_id',
            case tg_op when 'INSERT' then joined when 'DELETE' then gone else joined || ' union all ' || gone end)
        loop
          -- A membership left and joined again in one statement (an update that keeps it) is kept.
          update users u set group_ids = array(
              select g from unnest(u.group_ids || change.joined_ids) g
              where g <> all(change.left_ids) or g = any(change.joined_ids)
              group by g order by g)
            where u.id = change.user_id;
        end loop;
        return null;
      end $$;

      create trigger group_members_joined after insert on group_members
        referencing new table as added for each statement execute function users_group_ids_follow();
      create trigger group_members_changed after update on group_members
        referencing old table as removed new table as added for each statement execute function users_group_ids_follow();
      create trigger group_members_left after delete on group_members
        referencing old table as removed for each statement execute function users_group_ids_follow();

      update users u set group_ids = m.ids
        from (select user_id, array_agg(group_id order by group_id) as ids from group_members group by user_id) m
        where m.user_id = u.id;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      drop trigger group_members_joined on group_members;
      drop trigger group_members_changed on group_members;
      drop trigger group_members_left on group_members;
      drop function users_group_ids_follow();
      alter table users drop column group_ids;
    `);
  }
}
