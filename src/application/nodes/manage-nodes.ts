import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { moderationActed } from '../../domain/events.js';
import { Node } from '../../domain/nodes/node.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { Clock, UnitOfWork } from '../ports.js';

export interface CreateNodeInput {
  name: string;
  summary?: string;
  sort?: number;
  hidden?: boolean;
}

/** Nodes are the forum's structure: administrators shape it, and the audit log keeps each change. Returns the id. */
export class CreateNode {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: CreateNodeInput, reason: string | null = null): Promise<number> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const node = Node.create(input, this.clock.now());
      if (await this.nodes.nameTaken(node.name)) throw new RuleViolated('Validation failed: Name has already been taken');
      await this.nodes.add(node);
      const changes = {
        name: [null, node.name] as [null, string],
        summary: [null, node.summary] as [null, string],
        sort: [null, node.sort] as [null, number],
        hidden: [null, node.hidden] as [null, boolean],
      };
      await this.events.record(moderationActed('node.create', admin.id, { type: 'Node', id: node.id }, changes, reason));
      return node.id;
    });
  }
}

export class SetNodeHidden {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: number, hidden: boolean, reason: string | null = null): Promise<void> {
    const admin = requireAdmin(actor);
    await this.uow.run(async () => {
      const node = await this.nodes.findById(id);
      if (!node) throw new NotFound('node');
      if (node.hidden === hidden) return;
      node.setHidden(hidden, this.clock.now());
      const action = hidden ? 'node.hide' : 'node.unhide';
      await this.events.record(moderationActed(action, admin.id, { type: 'Node', id }, { hidden: [!hidden, hidden] }, reason));
    });
  }
}
