import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { type AuditChanges, moderationActed } from '../../domain/events.js';
import { Section } from '../../domain/nodes/section.js';
import type { SectionRepository } from '../../domain/nodes/section-repository.js';
import { Node } from '../../domain/nodes/node.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { NodeAccessChange, SetNodeAccess } from './node-access.js';

export interface CreateNodeInput {
  name: string;
  summary?: string;
  sort?: number;
  hidden?: boolean;
  /** The section to list it under (404 when there is none with this id). */
  sectionId?: number | null;
  /** Who may read, start topics, reply and moderate (contract §23), set with it: a group unknown creates nothing. */
  access?: NodeAccessChange;
}

/** Nodes are the forum's structure: administrators shape it, and the audit log keeps each change. Returns the id. */
export class CreateNode {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly sections: SectionRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly access: SetNodeAccess,
  ) {}

  async execute(actor: Actor, input: CreateNodeInput, reason: string | null = null): Promise<number> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const node = Node.create(input, this.clock.now());
      if (await this.nodes.nameTaken(node.name)) throw new RuleViolated('Validation failed: Name has already been taken');
      if (node.sectionId !== null) await existingSection(this.sections, node.sectionId);
      await this.nodes.add(node);
      const changes: AuditChanges = {
        name: [null, node.name],
        summary: [null, node.summary],
        sort: [null, node.sort],
        hidden: [null, node.hidden],
        ...(node.sectionId !== null ? { section_id: [null, node.sectionId] } : {}),
      };
      await this.events.record(moderationActed('node.create', admin.id, { type: 'Node', id: node.id }, changes, reason));
      if (input.access && Object.keys(input.access).length > 0) await this.access.within(admin, node.id, input.access, reason);
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
      if (!node) throw new NotFound(`node ${id}`);
      if (node.hidden === hidden) return;
      node.setHidden(hidden, this.clock.now());
      const action = hidden ? 'node.hide' : 'node.unhide';
      await this.events.record(moderationActed(action, admin.id, { type: 'Node', id }, { hidden: [!hidden, hidden] }, reason));
    });
  }
}

async function existingSection(sections: SectionRepository, id: number): Promise<Section> {
  const section = await sections.findById(id);
  if (!section) throw new NotFound('section');
  return section;
}

/** Sections group nodes under headings (contract §16a); administrators make them. Returns the id. */
export class CreateSection {
  constructor(
    private readonly sections: SectionRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { name: string; sort?: number }, reason: string | null = null): Promise<number> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const section = Section.create(input, this.clock.now());
      if (await this.sections.nameTaken(section.name)) {
        throw new RuleViolated('Validation failed: Name has already been taken');
      }
      await this.sections.add(section);
      const changes: AuditChanges = { name: [null, section.name], sort: [null, section.sort] };
      await this.events.record(moderationActed('section.create', admin.id, { type: 'Section', id: section.id }, changes, reason));
      return section.id;
    });
  }
}

/** Lists a node under a section, or under none (`sectionId` null). Returns whether that changed anything. */
export class SetNodeSection {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly sections: SectionRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, nodeId: number, sectionId: number | null, reason: string | null = null): Promise<boolean> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const node = await this.nodes.findById(nodeId);
      if (!node) throw new NotFound(`node ${nodeId}`);
      if (sectionId !== null) await existingSection(this.sections, sectionId);
      const before = node.sectionId;
      if (!node.placeIn(sectionId, this.clock.now())) return false;
      const changes: AuditChanges = { section_id: [before, sectionId] };
      await this.events.record(moderationActed('node.section', admin.id, { type: 'Node', id: nodeId }, changes, reason));
      return true;
    });
  }
}
