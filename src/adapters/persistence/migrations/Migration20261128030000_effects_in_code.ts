import { Migration } from '@mikro-orm/migrations';
import { Migration20261126010000_notification_events } from './Migration20261126010000_notification_events.js';
import { Migration20261126060000_notification_mail } from './Migration20261126060000_notification_mail.js';

/**
 * The database stores; code decides (issue 43). The notifications table's triggers no longer record events nor queue
 * mail: `notification.*` events are recorded by the code that changes notifications, like every other event, so that
 * the outbox is the one writer of `events` (and an import writes no events it must then delete); who is mailed is the
 * domain's rule (domain/notifications/mailing.ts), applied by an in-transaction consumer. The triggers keep only the
 * derived data with no decision in it: each user's unread count, as before, in user order.
 */
const COUNTS_ONLY = `
  create or replace function notification_unread_counts_follow() returns trigger language plpgsql as $$
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
  end $$;`;

export class Migration20261128030000_effects_in_code extends Migration {
  override async up(): Promise<void> {
    this.addSql(COUNTS_ONLY);
    this.addSql('drop trigger notifications_mail on notifications;');
    this.addSql('drop function notification_mail_queue();');
  }

  override async down(): Promise<void> {
    // Back to the triggers of migrations 20261126010000 (events) and 20261126060000 (mail), as they wrote them.
    for (const Earlier of [Migration20261126010000_notification_events, Migration20261126060000_notification_mail]) {
      const earlier = new Earlier(this.driver, this.config);
      await earlier.up();
      for (const query of earlier.getQueries()) {
        // The mail migration's up also made its column and table, which are still here: only its trigger comes back.
        if (typeof query === 'string' && /alter table notifications add column|create table notification_mail_queue/.test(query))
          continue;
        this.addSql(query);
      }
    }
  }
}
