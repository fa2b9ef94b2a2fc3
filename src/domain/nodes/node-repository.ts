import type { Node } from './node.js';

export interface NodeRepository {
  findById(id: number): Promise<Node | null>;
  /** The built-in hidden node that banned topics go to. */
  noPoint(): Promise<Node>;
  nameTaken(name: string): Promise<boolean>;
  add(node: Node): Promise<void>;
}
export const NodeRepository = Symbol.for('NodeRepository');
