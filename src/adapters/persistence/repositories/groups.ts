import type { Sql } from '../database/sql.js';
import { Group } from '../../../domain/groups/group.js';
import type { GroupRepository } from '../../../domain/groups/group-repository.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

interface GroupRow {
  id: number;
  name: string;
  title: string;
  hidden: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
}

const groupOf = (row: GroupRow): Group =>
  Object.assign(new Group(), {
    id: row.id,
    name: row.name,
    title: row.title,
    hidden: row.hidden,
    createdAt: toDate(row.created_at)!,
    updatedAt: toDate(row.updated_at)!,
  });

/** Groups and their members (contract §23), in plain SQL: a group is a row, its members a table keyed by user. */
export class SqlGroupRepository implements GroupRepository {
  constructor(private readonly sql: Sql) {}

  async byName(name: string): Promise<Group | null> {
    const row = await this.sql.one<GroupRow>('select * from groups where lower(name) = lower($1)', [name]);
    return row ? groupOf(row) : null;
  }

  async idsByName(names: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.sql.all<{ id: number; asked: string }>(
      `select g.id, asked from unnest($1::text[]) as asked join groups g on lower(g.name) = lower(asked)`,
      [names],
    );
    return new Map(rows.map((row) => [row.asked, row.id]));
  }

  async namesById(ids: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.sql.all<{ id: number; name: string }>('select id, name from groups where id = any($1::int[])', [ids]);
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async publicNames(ids: readonly number[]): Promise<string[]> {
    const rows = await this.sql.all<{ name: string }>(
      'select name from groups where id = any($1::int[]) and not hidden order by lower(name)',
      [ids],
    );
    return rows.map((row) => row.name);
  }

  async nameTaken(name: string, exceptId = 0): Promise<boolean> {
    const rows = await this.sql.all('select 1 from groups where lower(name) = lower($1) and id <> $2', [name, exceptId]);
    return rows.length > 0;
  }

  async add(group: Group): Promise<void> {
    const row = await this.sql.one<{ id: number }>(
      'insert into groups (name, title, hidden, created_at, updated_at) values ($1, $2, $3, $4, $4) returning id',
      [group.name, group.title, group.hidden, group.createdAt],
    );
    group.id = row!.id;
  }

  async save(group: Group): Promise<void> {
    await this.sql.all('update groups set name = $2, title = $3, hidden = $4, updated_at = $5 where id = $1', [
      group.id,
      group.name,
      group.title,
      group.hidden,
      group.updatedAt,
    ]);
  }

  async remove(group: Group): Promise<number[]> {
    const members = await this.sql.all<{ user_id: number }>('delete from group_members where group_id = $1 returning user_id', [
      group.id,
    ]);
    // A node that named it forgets it: its right narrows to the groups left, and to staff when none is left.
    const right = (name: string) =>
      `${name}_groups = array_remove(${name}_groups, $1),
       ${name}_access = case when ${name}_access = 'groups' and array_remove(${name}_groups, $1) = '{}' then 'staff'
         else ${name}_access end`;
    await this.sql.all(
      `with gone as (delete from groups where id = $1)
       update nodes set ${right('read')}, ${right('topics')}, ${right('replies')},
         moderator_groups = array_remove(moderator_groups, $1)
       where $1 = any(read_groups || topics_groups || replies_groups || moderator_groups)`,
      [group.id],
    );
    return members.map((row) => row.user_id).sort((a, b) => a - b);
  }

  async addMembers(groupId: number, userIds: readonly number[]): Promise<number[]> {
    const rows = await this.sql.all<{ user_id: number }>(
      `insert into group_members (group_id, user_id) select $1, unnest($2::int[])
       on conflict do nothing returning user_id`,
      [groupId, userIds],
    );
    return rows.map((row) => row.user_id);
  }

  async removeMembers(groupId: number, userIds: readonly number[]): Promise<number[]> {
    const rows = await this.sql.all<{ user_id: number }>(
      'delete from group_members where group_id = $1 and user_id = any($2::int[]) returning user_id',
      [groupId, userIds],
    );
    return rows.map((row) => row.user_id);
  }

  async groupIdsOf(userId: number): Promise<number[]> {
    const row = await this.sql.one<{ group_ids: number[] }>('select group_ids from users where id = $1', [userId]);
    return row?.group_ids ?? [];
  }
}
