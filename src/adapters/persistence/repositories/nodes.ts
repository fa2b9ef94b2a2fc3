import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../database/sql.js';
import { NO_POINT_NODE_NAME, Node } from '../../../domain/nodes/node.js';
import type { NodeRepository } from '../../../domain/nodes/node-repository.js';

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
}
