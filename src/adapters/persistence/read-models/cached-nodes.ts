import type { EventFeed } from '../../../application/events.js';
import type { CallerRef, Identified } from '../../../application/actor.js';
import type { NodeReadModel, NodeView, SectionListItem } from '../../../application/read-models.js';
import { RecentAnswers } from '../../../application/recent-answers.js';
import { mayBeSignedIn } from './callers.js';
import type { EveryonesNodes, SqlNodeReadModel } from './nodes.js';

/**
 * What moves a row of the node list: its topics' counts (topics made, moved, deleted, hidden, approved), a node made,
 * hidden or given a section (their audit's `moderation.acted`), who may read or moderate it (contract §23).
 */
const CHANGES_NODES = /^topic\.|^post\.(hidden|unhidden|discarded)$|^review\.resolved$|^node\.|^group\.|^moderation\.acted$/;

/**
 * The node list kept in this process for everyone (a server's, not forumctl's): the list is read by every page
 * header, the API's `GET /nodes`, feeds and the sitemap, and while no node is read or moderated by some only
 * (contract §23) it is the same for every caller. So the nodes everyone may read are kept as recent answers are
 * (never more than a second stale), and given to every caller while no node is restricted; once one is, a caller
 * who may be signed in is read afresh, with the one visibility rule the statement carries.
 */
export class CachedNodeReadModel implements NodeReadModel {
  private readonly everyones: RecentAnswers<EveryonesNodes>;

  constructor(
    private readonly nodes: SqlNodeReadModel,
    feed: EventFeed,
    now?: () => number,
  ) {
    this.everyones = new RecentAnswers(feed, CHANGES_NODES, { maxEntries: 1, ...(now ? { now } : {}) });
  }

  async list(caller: CallerRef): Promise<Identified<NodeView[]>> {
    const everyones = await this.everyones.get('nodes', () => this.nodes.everyones());
    if (!mayBeSignedIn(caller) || !everyones.someRestricted) return { viewer: null, result: everyones.nodes };
    return this.nodes.list(caller);
  }

  sections(): Promise<SectionListItem[]> {
    return this.nodes.sections();
  }

  get(id: number, caller: CallerRef): Promise<Identified<NodeView | null>> {
    return this.nodes.get(id, caller);
  }

  blocks(userId: number, nodeId: number): Promise<boolean> {
    return this.nodes.blocks(userId, nodeId);
  }

  close(): void {
    this.everyones.close();
  }
}
