import type { Sql } from '../database/sql.js';
import type { NodeReadModel, NodeView, SectionListItem } from '../../../application/read-models.js';
import type { CallerRef, Identified } from '../../../application/actor.js';
import { NODE_COLUMNS, type NodeRow, nodeView } from './rows.js';
import { VIEWER_CTE, type ViewerColumns, callerParams, mayBeSignedIn, viewerOf } from './callers.js';
import { SIGNED_OUT, type SqlReader, moderatedCondition, nodeCondition } from './visibility.js';

/**
 * Whether some node is read or moderated by some only (contract §23). Until one is, every caller is shown everyone's
 * nodes, and who calls is not looked up (their token's probe, the largest part of the statement for a short list).
 */
const SOME_NODE_RESTRICTED = `exists (select 1 from nodes r where r.read_access <> 'everyone' or r.moderator_groups <> '{}')`;

/** The caller, looked up only when some node asks who reads (`reader`, inlined: its filter is checked first). */
const READER: SqlReader = {
  id: '(select id from reader)',
  groups: '(select groups from reader)',
  admin: "exists(select 1 from reader where role = 'admin')",
  member: "exists(select 1 from reader where role <> 'blocked')",
};

/** The nodes the caller may read (contract §23: one they may not does not exist for them), with the caller. */
const READABLE_NODES = `with ${VIEWER_CTE}, reader as (select * from viewer where ${SOME_NODE_RESTRICTED})
  select ${NODE_COLUMNS}, (select id from reader) as viewer_id, (select login from reader) as viewer_login,
    (select role from reader) as viewer_role, ${moderatedCondition(READER.groups, 'n')} as moderated
  from nodes n where ${nodeCondition(READER, 'n')}`;

/** The nodes everyone may read: what a caller who cannot be signed in gets, with no caller to look up. */
const EVERYONES_NODES = `select ${NODE_COLUMNS} from nodes n where ${nodeCondition(SIGNED_OUT, 'n')}`;

/** The nodes everyone may read, in their order, and whether some node is read or moderated by some only. */
export interface EveryonesNodes {
  nodes: NodeView[];
  someRestricted: boolean;
}

/** Nodes: those the caller may read, in their order, and one. */
export class SqlNodeReadModel implements NodeReadModel {
  constructor(private readonly sql: Sql) {}

  /** What a caller who is not signed in is shown, and whether everyone else is shown the same (one statement). */
  async everyones(): Promise<EveryonesNodes> {
    const rows = await this.sql.all<NodeRow & { some_restricted: boolean }>(
      `select ${NODE_COLUMNS}, ${SOME_NODE_RESTRICTED} as some_restricted
       from nodes n where ${nodeCondition(SIGNED_OUT, 'n')} order by n.sort desc, n.id`,
    );
    // No node everyone may read: whether some is restricted is not asked, and taken to be so.
    return { nodes: rows.map(nodeView), someRestricted: rows[0]?.some_restricted ?? true };
  }

  async list(caller: CallerRef): Promise<Identified<NodeView[]>> {
    if (!mayBeSignedIn(caller)) {
      const rows = await this.sql.all<NodeRow>(`${EVERYONES_NODES} order by n.sort desc, n.id`);
      return { viewer: null, result: rows.map(nodeView) };
    }
    const rows = await this.sql.all<NodeRow & ViewerColumns>(
      `${READABLE_NODES} order by n.sort desc, n.id`,
      callerParams(caller),
    );
    return { viewer: viewerOf(rows[0]), result: rows.map(nodeView) };
  }

  async sections(): Promise<SectionListItem[]> {
    return this.sql.all<SectionListItem>(
      `select s.id, s.name, s.sort, (select count(*)::int from nodes n where n.section_id = s.id) as "nodesCount"
       from sections s order by s.sort desc, s.id`,
    );
  }

  async get(id: number, caller: CallerRef): Promise<Identified<NodeView | null>> {
    if (!mayBeSignedIn(caller)) {
      const row = await this.sql.one<NodeRow>(`${EVERYONES_NODES} and n.id = $1`, [id]);
      return { viewer: null, result: row ? nodeView(row) : null };
    }
    const rows = await this.sql.all<NodeRow & ViewerColumns>(`${READABLE_NODES} and n.id = $6`, [...callerParams(caller), id]);
    return { viewer: viewerOf(rows[0]), result: rows[0] ? nodeView(rows[0]) : null };
  }

  async blocks(userId: number, nodeId: number): Promise<boolean> {
    const rows = await this.sql.all('select 1 from node_blocks where user_id = $1 and node_id = $2', [userId, nodeId]);
    return rows.length > 0;
  }
}
