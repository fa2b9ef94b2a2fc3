import { Migration } from '@mikro-orm/migrations';

/**
 * Private messages (contract §24). A conversation is a topic in no node: its opening message is the topic's body,
 * its messages are replies, so that rendering, read state (topic_reads), flags and reply by e-mail serve it as they
 * serve a topic. Who takes part is `conversation_participants`: a user, or a group whose members take part; a user
 * who leaves keeps a row with `left_at`, which also keeps them out when a group of theirs takes part. The visibility
 * policy (read-models/visibility.ts) is what keeps a topic in no node out of every forum reader.
 *
 * Expand only: `node_id` loses its NOT NULL; the previous release never writes a topic without a node, and its
 * statements join a topic's node, so it shows none of these while both run.
 */
export class Migration20261129040000_conversations extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table topics alter column node_id drop not null;');
    this.addSql(`
      create table conversation_participants (
        topic_id integer not null references topics (id) on delete cascade,
        user_id integer references users (id) on delete cascade,
        group_id integer references groups (id) on delete cascade,
        added_by_id integer references users (id) on delete set null,
        created_at timestamptz not null default now(),
        left_at timestamptz,
        check ((user_id is null) <> (group_id is null))
      );`);
    this.addSql(
      'create unique index conversation_participants_user on conversation_participants (topic_id, user_id) where user_id is not null;',
    );
    this.addSql(
      'create unique index conversation_participants_group on conversation_participants (topic_id, group_id) where group_id is not null;',
    );
    // Someone's conversations (the list, the unread count), and the conversations of a group.
    this.addSql(
      'create index conversation_participants_by_user on conversation_participants (user_id, topic_id) where user_id is not null;',
    );
    this.addSql(
      'create index conversation_participants_by_group on conversation_participants (group_id, topic_id) where group_id is not null;',
    );
    // A conversation's activity, newest first, for its participants' lists.
    this.addSql('create index topics_conversations_active on topics (last_active_at desc, id desc) where node_id is null;');
    // Mail about messages (contract §24): a preference of its own, on by default.
    this.addSql(`alter table users add column email_messages varchar(8) not null default 'always'
      check (email_messages in ('always', 'never'));`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table users drop column email_messages;');
    this.addSql('drop index topics_conversations_active;');
    this.addSql('drop table conversation_participants;');
    // A conversation's messages go with it: replies hold their topic without a cascade.
    this.addSql('delete from replies where topic_id in (select id from topics where node_id is null);');
    this.addSql('delete from topics where node_id is null;');
    this.addSql('alter table topics alter column node_id set not null;');
  }
}
