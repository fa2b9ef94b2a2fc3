import { Migration } from '@mikro-orm/migrations';

/**
 * Notification mail (contract §17), queued by the notifications table itself, like its events
 * (Migration20261126010000_notification_events): whoever inserts a notification (a reply, a topic, a held post
 * approved later), the statement that inserts it also queues the mail, in the same transaction.
 *
 * One job per recipient and topic, keyed `notifications:<user>:<topic>` with graphile-worker's `preserve_run_at`:
 * the first notification of a topic sets when the mail goes (EMAIL_DELAY_MINUTES later, which each connection of
 * the service carries as `forum.email_delay_minutes`, orm.ts), and the ones made before then join that job rather
 * than moving it. When it runs, the sender mails what is still unread and not mailed (`emailed_at`), as one mail.
 *
 * Only TopicReply and Mention notifications, to active accounts whose preferences ask for them, and only new ones:
 * rows written with an old `created_at` (an import of another forum's history) are not news to anyone.
 */
export class Migration20261126060000_notification_mail extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table notifications add column emailed_at timestamptz(3);');
    this.addSql(`
      create function notification_mail_queue() returns trigger language plpgsql as $$
      begin
        perform graphile_worker.add_job(
          'mail_delivery',
          json_build_object('kind', 'notifications', 'userId', due.user_id, 'topicId', due.topic_id),
          run_at := now() + make_interval(mins => coalesce(nullif(current_setting('forum.email_delay_minutes', true), '')::int, 10)),
          max_attempts := 12,
          job_key := 'notifications:' || due.user_id || ':' || due.topic_id,
          job_key_mode := 'preserve_run_at')
        from (
          select distinct a.user_id, a.topic_id
          from added a join users u on u.id = a.user_id
          where a.read_at is null and a.topic_id is not null and a.created_at > now() - interval '1 day'
            and u.state = 'active'
            and (a.type = 'Mention' and u.email_notifications <> 'none'
                 or a.type = 'TopicReply' and u.email_notifications = 'mentions_and_replies')
          order by a.user_id, a.topic_id) due;
        return null;
      end $$;
    `);
    this.addSql(`
      create trigger notifications_mail after insert on notifications
        referencing new table as added for each statement execute function notification_mail_queue();
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger notifications_mail on notifications;');
    this.addSql('drop function notification_mail_queue();');
    this.addSql('alter table notifications drop column emailed_at;');
  }
}
