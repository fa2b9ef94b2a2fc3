import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { Node } from '../../domain/nodes/node.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { Clock, UnitOfWork } from '../ports.js';

export interface CreateNodeInput {
  name: string;
  summary?: string;
  sort?: number;
  hidden?: boolean;
}

/** Returns the new node's id. */
export class CreateNode {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(input: CreateNodeInput): Promise<number> {
    return this.uow.run(async () => {
      const node = Node.create(input, this.clock.now());
      if (await this.nodes.nameTaken(node.name)) throw new RuleViolated('Validation failed: Name has already been taken');
      await this.nodes.add(node);
      return node.id;
    });
  }
}

export class SetNodeHidden {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(id: number, hidden: boolean): Promise<void> {
    await this.uow.run(async () => {
      const node = await this.nodes.findById(id);
      if (!node) throw new NotFound('node');
      node.setHidden(hidden, this.clock.now());
    });
  }
}
