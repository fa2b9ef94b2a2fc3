import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../sql.js';
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

  /** The NoPoint node never changes id: looked up once, then by primary key. */
  async noPoint(): Promise<Node> {
    if (this.noPointId !== null) {
      const node = await this.findById(this.noPointId);
      if (node) return node;
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
