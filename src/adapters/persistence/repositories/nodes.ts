import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../database/sql.js';
import { NO_POINT_NODE_NAME, Node } from '../../../domain/nodes/node.js';
import type { NodePlace, NodeRepository } from '../../../domain/nodes/node-repository.js';
import type { NodeAccess } from '../../../domain/nodes/access.js';
import { type AccessRow, accessColumns, accessOf, accessValues } from './node-access.js';
import { groupsOf, moderatedCondition } from '../read-models/visibility.js';

export class MikroOrmNodeRepository implements NodeRepository {
  private noPointId: number | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  findById(id: number): Promise<Node | null> {
    return this.em.findOne(Node, { id });
  }

  /**
   * Looked up by name once, then by primary key while that node is still NoPoint: an import from homeland moves it
   * out of homeland's ids (contract §20), and the node then found at its old id is one of homeland's.
   */
  async noPoint(): Promise<Node> {
    if (this.noPointId !== null) {
      const node = await this.findById(this.noPointId);
      if (node?.name === NO_POINT_NODE_NAME) return node;
    }
    const node = await this.em.findOneOrFail(Node, { name: NO_POINT_NODE_NAME });
    this.noPointId = node.id;
    return node;
  }

  async nameTaken(name: string): Promise<boolean> {
    const rows = await this.sql.all<{ taken: boolean }>(
      'select exists(select 1 from nodes where lower(name) = lower($1)) as taken',
      [name],
    );
    return rows[0]!.taken;
  }

  async add(node: Node): Promise<void> {
    await this.em.persist(node).flush();
  }

  async placeFor(id: number, userId: number | null): Promise<NodePlace | null> {
    const row = await this.sql.one<AccessRow & { hidden: boolean; group_ids: number[] }>(
      `select n.hidden, ${accessColumns('n')},
         coalesce(${groupsOf('$2::int')}, '{}') as group_ids
       from nodes n where n.id = $1`,
      [id, userId],
    );
    return row ? { node: { hidden: row.hidden, access: accessOf(row) }, groupIds: row.group_ids } : null;
  }

  async access(id: number): Promise<NodeAccess | null> {
    const row = await this.sql.one<AccessRow>(`select ${accessColumns('n')} from nodes n where n.id = $1`, [id]);
    return row ? accessOf(row) : null;
  }

  async accessOf(ids: readonly number[]): Promise<Map<number, NodeAccess>> {
    const rows = await this.sql.all<AccessRow & { id: number }>(
      `select n.id, ${accessColumns('n')} from nodes n where n.id = any($1::int[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, accessOf(row)]));
  }

  async setAccess(id: number, access: NodeAccess): Promise<void> {
    await this.sql.all(
      `update nodes set (read_access, topics_access, replies_access, read_groups, topics_groups, replies_groups,
         moderator_groups, updated_at) = ($2, $3, $4, $5, $6, $7, $8, now()) where id = $1`,
      [id, ...accessValues(access)],
    );
  }

  async moderatedBy(userId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select n.id from nodes n where ${moderatedCondition(groupsOf('$1::int'), 'n')} order by n.id`,
      [userId],
    );
    return rows.map((row) => row.id);
  }
}
