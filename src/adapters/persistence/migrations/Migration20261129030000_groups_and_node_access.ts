import { Migration } from '@mikro-orm/migrations';

/**
 * Groups, and who may read, start topics, reply and moderate in each node (contract §23). A node's defaults are
 * today's behaviour (read: everyone; topics and replies: members), so every existing node keeps it. A node names its
 * groups by id in arrays, one per right: the visibility policy's condition reads them off the node row it already has
 * (read-models/visibility.ts), and a group's deletion takes its id out of them. Expand only: the previous release
 * runs beside it and reads none of it. Webhooks say whether they hear of nodes not everyone reads (`private_nodes`).
 */
export class Migration20261129030000_groups_and_node_access extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table groups (
        id serial primary key,
        name varchar(40) not null,
        title varchar(100) not null default '',
        hidden boolean not null default false,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`);
    this.addSql('create unique index groups_name_unique on groups (lower(name));');
    this.addSql(`
      create table group_members (
        group_id integer not null references groups (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (user_id, group_id)
      );`);
    this.addSql('create index group_members_by_group on group_members (group_id, user_id);');
    this.addSql(`
      alter table nodes
        add column read_access text not null default 'everyone'
          check (read_access in ('everyone', 'members', 'groups', 'staff')),
        add column topics_access text not null default 'members' check (topics_access in ('members', 'groups', 'staff')),
        add column replies_access text not null default 'members' check (replies_access in ('members', 'groups', 'staff')),
        add column read_groups integer[] not null default '{}',
        add column topics_groups integer[] not null default '{}',
        add column replies_groups integer[] not null default '{}',
        add column moderator_groups integer[] not null default '{}';`);
    // A webhook hears of what happens in a node not everyone may read only when it was made for it.
    this.addSql('alter table webhooks add column private_nodes boolean not null default false;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhooks drop column private_nodes;');
    this.addSql(`
      alter table nodes drop column read_access, drop column topics_access, drop column replies_access,
        drop column read_groups, drop column topics_groups, drop column replies_groups, drop column moderator_groups;`);
    this.addSql('drop table group_members;');
    this.addSql('drop table groups;');
  }
}
