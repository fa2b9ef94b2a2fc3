import { Migration } from '@mikro-orm/migrations';

/**
 * Reply by e-mail (contract §17): a record of every mail received, through the endpoint or the SMTP listener,
 * and what became of it. What an administrator needs to answer "why did my mail not appear?": when, how, its
 * Message-ID, the sender's address, the key's user and topic, the outcome and the reason of a refusal, the reply
 * it became, its size. Never the message itself.
 *
 * A Message-ID posts once: the unique index covers posted mails only, so that a provider retrying a mail that
 * was posted cannot post it twice, while a refused mail that comes again (a rule may have changed: the topic
 * reopened, the limit passed) is judged again and recorded again. The record of a posted mail is written in
 * the transaction that writes its reply.
 *
 * The ids are kept as they were, without foreign keys, as the audit log keeps its targets: a log of what happened
 * (the reply may be deleted later), and no delete of a user, topic or reply has to look through it.
 *
 * Expand only: a new table.
 */
export class Migration20261126080000_inbound_mail extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table inbound_mails (
        id bigint generated always as identity primary key,
        received_at timestamptz not null,
        via varchar(4) not null check (via in ('http', 'smtp')),
        message_id varchar(998),
        sender varchar(320),
        user_id integer,
        topic_id integer,
        outcome varchar(12) not null check (outcome in ('posted', 'unsubscribed', 'refused')),
        reason varchar(200),
        reply_id integer,
        size integer not null check (size >= 0),
        check ((outcome = 'refused') = (reason is not null)),
        check ((outcome = 'posted') = (reply_id is not null))
      );
      create unique index inbound_mails_posted_message_id on inbound_mails (message_id)
        where outcome = 'posted' and message_id is not null;
      create index inbound_mails_received_at on inbound_mails (received_at desc, id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table inbound_mails;');
  }
}
