import type { NodeAccess } from './access.js';
import type { Node } from './node.js';
import type { NodeFacts } from '../visibility/visibility.js';

/** A node as the visibility rule reads it, with the groups of the user asking (none when signed out). */
export interface NodePlace {
  node: NodeFacts;
  groupIds: number[];
}

export interface NodeRepository {
  findById(id: number): Promise<Node | null>;
  /** The built-in hidden node that banned topics go to. */
  noPoint(): Promise<Node>;
  nameTaken(name: string): Promise<boolean>;
  add(node: Node): Promise<void>;
  /** Node `id` as the visibility rule reads it, with the groups of `userId` (contract §23), in one read. */
  placeFor(id: number, userId: number | null): Promise<NodePlace | null>;
  /** Who may read, start topics, reply and moderate in node `id`. */
  access(id: number): Promise<NodeAccess | null>;
  /** The same of each of the nodes `ids` that exists, in one read: what a form that lists nodes may offer. */
  accessOf(ids: readonly number[]): Promise<Map<number, NodeAccess>>;
  setAccess(id: number, access: NodeAccess): Promise<void>;
  /**
   * The nodes `userId` moderates as a member of their moderator groups (contract §23: `mayModerate`, administrators
   * aside, who moderate everywhere), by id.
   */
  moderatedBy(userId: number): Promise<number[]>;
}
export const NodeRepository = Symbol.for('NodeRepository');
