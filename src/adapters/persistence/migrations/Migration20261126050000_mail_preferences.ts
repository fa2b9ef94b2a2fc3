import { Migration } from '@mikro-orm/migrations';

/**
 * Notification mail preferences (contract §17): which notifications are mailed and how often a digest comes.
 * Expand only: new columns with the contract's defaults.
 */
export class Migration20261126050000_mail_preferences extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table users
        add column email_notifications varchar(24) not null default 'mentions_and_replies'
          check (email_notifications in ('mentions_and_replies', 'mentions', 'none')),
        add column email_digest varchar(8) not null default 'weekly' check (email_digest in ('weekly', 'daily', 'none'));
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table users drop column email_digest, drop column email_notifications;');
  }
}
