import type { NodePlace, NodeRepository } from '../../domain/nodes/node-repository.js';
import { NotFound } from '../../domain/shared/errors.js';
import type { Viewer } from '../../domain/users/role.js';
import { nodeReadableBy, readerOf } from '../../domain/visibility/visibility.js';

/**
 * Node `nodeId` as `viewer` may know it (contract §23): one they may not read does not exist for them, and is 404
 * as an unknown one is. Returns where it is, with their groups, for what they then may do there.
 */
export async function readableNode(nodes: NodeRepository, nodeId: number, viewer: Viewer): Promise<NodePlace> {
  const place = await nodes.placeFor(nodeId, viewer.id);
  if (!place || !nodeReadableBy(readerOf(viewer, place.groupIds), place.node)) throw new NotFound(`node ${nodeId}`);
  return place;
}
