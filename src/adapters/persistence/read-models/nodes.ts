import type { Sql } from '../database/sql.js';
import type { NodeReadModel, NodeView, SectionListItem } from '../../../application/read-models.js';
import { NODE_COLUMNS, type NodeRow, nodeView } from './rows.js';

/** Nodes: all of them, in their order, and one. */

export class SqlNodeReadModel implements NodeReadModel {
  constructor(private readonly sql: Sql) {}

  async list(): Promise<NodeView[]> {
    const rows = await this.sql.all<NodeRow>(`select ${NODE_COLUMNS} from nodes order by sort desc, id`);
    return rows.map(nodeView);
  }

  async sections(): Promise<SectionListItem[]> {
    return this.sql.all<SectionListItem>(
      `select s.id, s.name, s.sort, (select count(*)::int from nodes n where n.section_id = s.id) as "nodesCount"
       from sections s order by s.sort desc, s.id`,
    );
  }

  async get(id: number): Promise<NodeView | null> {
    const rows = await this.sql.all<NodeRow>(`select ${NODE_COLUMNS} from nodes where id = $1`, [id]);
    return rows[0] ? nodeView(rows[0]) : null;
  }

  async blocks(userId: number, nodeId: number): Promise<boolean> {
    const rows = await this.sql.all('select 1 from node_blocks where user_id = $1 and node_id = $2', [userId, nodeId]);
    return rows.length > 0;
  }
}
