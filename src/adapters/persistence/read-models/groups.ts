import type { Sql } from '../database/sql.js';
import type { GroupReadModel, GroupView, UserView } from '../../../application/read-models.js';
import type { CallerRef, Identified } from '../../../application/actor.js';
import { type Timestamp, toDate } from '../database/timestamps.js';
import { VIEWER_COLUMNS, VIEWER_CTE, type ViewerColumns, callerParams, viewerOf } from './callers.js';
import { VIEWER } from './visibility.js';

interface GroupRow {
  id: number;
  name: string;
  title: string;
  hidden: boolean;
  members_count: number;
  created_at: Timestamp;
}

/** A group's columns (`g`), with how many members it has (an index probe: group_members_by_group). */
const GROUP_COLUMNS = `g.id, g.name, g.title, g.hidden, g.created_at,
  (select count(*)::int from group_members m where m.group_id = g.id) as members_count`;

const groupView = (row: GroupRow): GroupView => ({
  id: row.id,
  name: row.name,
  title: row.title,
  hidden: row.hidden,
  membersCount: row.members_count,
  createdAt: toDate(row.created_at),
});

/**
 * Group `$6` (any case) for the caller of VIEWER_CTE (joined as `v`): a hidden group exists only for an administrator
 * (contract §23). One row, with no group when none is found (the caller is still named).
 */
const GROUP_FOR_CALLER = `with ${VIEWER_CTE}
  select p.*, ${VIEWER_COLUMNS}
  from (select 1) gate left join viewer v on true left join lateral (
    select ${GROUP_COLUMNS} from groups g
    where lower(g.name) = lower($6) and (not g.hidden or ${VIEWER.admin})) p on true`;

/** Groups (contract §23): every one for forumctl, and one as the API shows it to its caller. */
export class SqlGroupReadModel implements GroupReadModel {
  constructor(private readonly sql: Sql) {}

  async list(): Promise<GroupView[]> {
    const rows = await this.sql.all<GroupRow>(`select ${GROUP_COLUMNS} from groups g order by lower(g.name)`);
    return rows.map(groupView);
  }

  async show(name: string): Promise<(GroupView & { members: UserView[] }) | null> {
    const row = await this.sql.one<GroupRow & { members: UserView[] }>(
      `select ${GROUP_COLUMNS}, coalesce((
         select json_agg(json_build_object('id', u.id, 'login', u.login, 'name', u.name) order by lower(u.login))
         from group_members m join users u on u.id = m.user_id where m.group_id = g.id), '[]') as members
       from groups g where lower(g.name) = lower($1)`,
      [name],
    );
    return row ? { ...groupView(row), members: row.members } : null;
  }

  async get(name: string, caller: CallerRef): Promise<Identified<GroupView | null>> {
    const row = await this.sql.one<Partial<GroupRow> & ViewerColumns>(GROUP_FOR_CALLER, [...callerParams(caller), name]);
    return { viewer: viewerOf(row ?? undefined), result: row?.id != null ? groupView(row as GroupRow) : null };
  }
}
