import { Migration } from '@mikro-orm/migrations';

/**
 * Notification mail (contract §17), queued by the notifications table itself, like its events
 * (Migration20261126010000_notification_events): whoever inserts a notification (a reply, a topic, a held post
 * approved later), the statement that inserts it also queues the mail, in the same transaction.
 *
 * Queued as a row of `notification_mail_queue`, one per recipient and topic: the first notification of a topic
 * sets when it was queued, later ones find the row there and leave it (`on conflict do nothing`), so a topic's
 * burst goes out as one mail. The mail sender moves rows older than EMAIL_DELAY_MINUTES onto the job queue
 * (NotificationMailQueue), and mails what is still unread and not mailed (`emailed_at`) of that topic.
 *
 * Not graphile-worker's `add_job` here: it NOTIFYs, and a transaction that notifies takes PostgreSQL's one
 * notification-queue lock at commit, which would put every reply's commit in one line (half the reply throughput,
 * measured); the move onto the job queue notifies once per batch instead.
 *
 * Only TopicReply and Mention notifications, to active accounts whose preferences ask for them, and only new ones:
 * rows written with an old `created_at` (an import of another forum's history) are not news to anyone.
 */
export class Migration20261126060000_notification_mail extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table notifications add column emailed_at timestamptz(3);');
    this.addSql(`
      create table notification_mail_queue (
        user_id integer not null,
        topic_id integer not null,
        queued_at timestamptz(3) not null default now(),
        primary key (user_id, topic_id)
      );
      create index notification_mail_queue_due_idx on notification_mail_queue (queued_at);
    `);
    this.addSql(`
      create function notification_mail_queue() returns trigger language plpgsql as $$
      begin
        insert into notification_mail_queue (user_id, topic_id)
          select distinct a.user_id, a.topic_id
          from added a join users u on u.id = a.user_id
          where a.read_at is null and a.topic_id is not null and a.created_at > now() - interval '1 day'
            and u.state = 'active'
            and (a.type = 'Mention' and u.email_notifications <> 'none'
                 or a.type = 'TopicReply' and u.email_notifications = 'mentions_and_replies')
          order by a.user_id, a.topic_id
        on conflict do nothing;
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
    this.addSql('drop table notification_mail_queue;');
    this.addSql('alter table notifications drop column emailed_at;');
  }
}
