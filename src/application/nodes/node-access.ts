import { type Allowed, type AllowedInput, type NodeAccess, describeAllowed } from '../../domain/nodes/access.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { GroupRepository } from '../../domain/groups/group-repository.js';
import { NotFound } from '../../domain/shared/errors.js';
import { type AuditChanges, moderationActed } from '../../domain/events.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { UnitOfWork } from '../ports.js';

/** What an administrator asks of a node's access: each right given is replaced, the others kept. */
export interface NodeAccessChange {
  read?: AllowedInput;
  topics?: AllowedInput;
  replies?: AllowedInput;
  /** The groups that moderate it (none: an empty list). */
  moderators?: readonly string[];
}

/**
 * Who may read, start topics, reply and moderate in a node (contract §23), set by an administrator and kept by the
 * audit log (each right as it was and as it is, by name). Takes effect for every reader at once: the visibility
 * policy reads the node's row.
 */
export class SetNodeAccess {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly groups: GroupRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  /** Returns the node's access as it then is, each right described as an administrator reads it. */
  async execute(
    actor: Actor,
    nodeId: number,
    change: NodeAccessChange,
    reason: string | null = null,
  ): Promise<Record<'read' | 'topics' | 'replies' | 'moderators', string>> {
    const admin = requireAdmin(actor);
    return this.uow.run(() => this.within(admin, nodeId, change, reason));
  }

  /** The same, by an administrator, in the unit of work under way (a node created with its access: CreateNode). */
  async within(
    admin: { id: number },
    nodeId: number,
    change: NodeAccessChange,
    reason: string | null,
  ): Promise<Record<'read' | 'topics' | 'replies' | 'moderators', string>> {
    const before = await this.nodes.access(nodeId);
    if (!before) throw new NotFound(`node ${nodeId}`);
    const asked = [change.read, change.topics, change.replies].flatMap((input) =>
      input && 'groups' in input ? input.groups : [],
    );
    const ids = await this.groups.idsByName([...asked, ...(change.moderators ?? [])]);
    const idOf = (name: string) => {
      const id = [...ids].find(([asked]) => asked.toLowerCase() === name.toLowerCase())?.[1];
      if (id === undefined) throw new NotFound(`group ${name}`);
      return id;
    };
    const allowed = (input: AllowedInput | undefined, was: Allowed): Allowed =>
      input === undefined
        ? was
        : 'groups' in input
          ? { audience: 'groups', groupIds: input.groups.map(idOf) }
          : { audience: input.audience, groupIds: [] };
    const after: NodeAccess = {
      read: allowed(change.read, before.read),
      topics: allowed(change.topics, before.topics),
      replies: allowed(change.replies, before.replies),
      moderatorGroupIds: change.moderators ? change.moderators.map(idOf) : before.moderatorGroupIds,
    };
    const names = await this.groups.namesById([...described(before), ...described(after)]);
    const shown = (access: NodeAccess) => ({
      read: describeAllowed(access.read, names),
      topics: describeAllowed(access.topics, names),
      replies: describeAllowed(access.replies, names),
      moderators: access.moderatorGroupIds.map((id) => names.get(id) ?? `#${id}`).join(','),
    });
    const was = shown(before);
    const is = shown(after);
    const changes: AuditChanges = {};
    for (const key of ['read', 'topics', 'replies', 'moderators'] as const) {
      if (was[key] !== is[key]) changes[key] = [was[key], is[key]];
    }
    if (Object.keys(changes).length > 0) {
      await this.nodes.setAccess(nodeId, after);
      await this.events.record({ type: 'node.access_changed', nodeId });
      await this.events.record(moderationActed('node.access', admin.id, { type: 'Node', id: nodeId }, changes, reason));
    }
    return is;
  }
}

/** Every group id an access names. */
const described = (access: NodeAccess): number[] => [
  ...access.read.groupIds,
  ...access.topics.groupIds,
  ...access.replies.groupIds,
  ...access.moderatorGroupIds,
];
