import { type Allowed, type Member, mayStartTopics, refusedRight } from '../../domain/nodes/access.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { GroupRepository } from '../../domain/groups/group-repository.js';
import type { Viewer } from '../../domain/users/role.js';

/**
 * Who may write in a node, as someone who may not is told (contract §23): the staff, or the members of some groups,
 * named when they are not hidden (`groups` is empty when every one is).
 */
export type WhoMay = { audience: 'staff' } | { audience: 'groups'; groups: string[] };

/**
 * Where a signed-in person may write (contract §23), for the pages: a form offers only the nodes that will take it,
 * and where a node will not, the page says who may instead. The rules are the domain's (domain/nodes/access.ts); the
 * use cases that write apply them again (topics/relocation.ts, replies/create-reply.ts), and decide.
 */
export class WritingRights {
  constructor(
    private readonly nodes: NodeRepository,
    private readonly groups: GroupRepository,
  ) {}

  /** Of the nodes `nodeIds`, those `user` may start topics in. */
  async topicNodes(user: Viewer, nodeIds: readonly number[]): Promise<Set<number>> {
    const accesses = await this.nodes.accessOf(nodeIds);
    const who: Member = { viewer: user, groupIds: new Set(await this.groups.groupIdsOf(user.id)) };
    return new Set(nodeIds.filter((id) => accesses.has(id) && mayStartTopics(accesses.get(id)!, who)));
  }

  /** Who may start topics in node `nodeId`, when `user` may not; null when they may (or there is no such node). */
  whoMayStartTopics(user: Viewer, nodeId: number): Promise<WhoMay | null> {
    return this.whoMay(user, nodeId, 'topics');
  }

  /** Who may reply in node `nodeId`, when `user` may not; null when they may (or there is no such node). */
  whoMayReply(user: Viewer, nodeId: number): Promise<WhoMay | null> {
    return this.whoMay(user, nodeId, 'replies');
  }

  private async whoMay(user: Viewer, nodeId: number, right: 'topics' | 'replies'): Promise<WhoMay | null> {
    const place = await this.nodes.placeFor(nodeId, user.id);
    if (!place) return null;
    const access = place.node.access;
    const refused: Allowed | null = refusedRight(access[right], access, { viewer: user, groupIds: new Set(place.groupIds) });
    if (!refused) return null;
    return refused.audience === 'staff'
      ? { audience: 'staff' }
      : { audience: 'groups', groups: await this.groups.publicNames(refused.groupIds) };
  }
}
