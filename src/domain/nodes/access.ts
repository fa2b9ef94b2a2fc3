import { RuleViolated } from '../shared/errors.js';
import type { Viewer } from '../users/role.js';

/**
 * Who may read, start topics and reply in a node, and which groups moderate it (contract §23). Reading is decided for
 * every reader by the visibility policy (domain/visibility/visibility.ts, `nodeReadable`), which asks `mayRead`
 * here; writing is asked of `mayStartTopics` and `mayReply` by the use cases that write.
 */

/** Who a right is given to. `everyone` (signed out too) is for reading only. */
export const AUDIENCES = ['everyone', 'members', 'groups', 'staff'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** A right: its audience, and the groups it names when that is `groups`. */
export interface Allowed {
  readonly audience: Audience;
  readonly groupIds: readonly number[];
}

export interface NodeAccess {
  readonly read: Allowed;
  readonly topics: Allowed;
  readonly replies: Allowed;
  /** Groups whose members moderate the node, and so may read and write there. */
  readonly moderatorGroupIds: readonly number[];
}

/** The rights a node has unless an administrator says otherwise: today's behaviour. */
export const OPEN_NODE: NodeAccess = {
  read: { audience: 'everyone', groupIds: [] },
  topics: { audience: 'members', groupIds: [] },
  replies: { audience: 'members', groupIds: [] },
  moderatorGroupIds: [],
};

/** Who asks: the viewer (null when signed out) and the groups they belong to. */
export interface Member {
  readonly viewer: Viewer | null;
  readonly groupIds: ReadonlySet<number>;
}

const inAny = (who: Member, groupIds: readonly number[]) => groupIds.some((id) => who.groupIds.has(id));

/** Whether `who` moderates a node of `access`: an administrator, or a member of one of its moderators' groups. */
export const mayModerate = (access: NodeAccess, who: Member): boolean =>
  who.viewer !== null && (who.viewer.role === 'admin' || inAny(who, access.moderatorGroupIds));

function allows(allowed: Allowed, access: NodeAccess, who: Member): boolean {
  if (allowed.audience === 'everyone') return true;
  if (who.viewer === null) return false;
  if (mayModerate(access, who)) return true;
  switch (allowed.audience) {
    case 'members':
      return who.viewer.role !== 'blocked';
    case 'groups':
      return inAny(who, allowed.groupIds);
    case 'staff':
      return false;
  }
}

/** Whether `who` may read in a node of `access`: one that they may not does not exist for them. */
export const mayRead = (access: NodeAccess, who: Member): boolean => allows(access.read, access, who);

/** Whether `who` may start a topic in a node of `access` (they may read it: the caller found it). */
export const mayStartTopics = (access: NodeAccess, who: Member): boolean => allows(access.topics, access, who);

/** Whether `who` may reply in a node of `access`. */
export const mayReply = (access: NodeAccess, who: Member): boolean => allows(access.replies, access, who);

/**
 * The right of a node of `access` that `who` is refused, when it is the node that refuses them (contract §23): one
 * given to staff or to some groups, which a page may tell them of instead of offering a form the use case refuses.
 * Null when they have it, or when what refuses them is their own account (a blocked one, where members may): the
 * policy says so for every node (`policy.createTopic`, `policy.createReply`).
 */
export function refusedRight(allowed: Allowed, access: NodeAccess, who: Member): Allowed | null {
  if (allows(allowed, access, who)) return null;
  return allowed.audience === 'staff' || allowed.audience === 'groups' ? allowed : null;
}

/** What an administrator asks a right to be: an audience, or the names of groups (resolved to ids by the caller). */
export type AllowedInput = { audience: Exclude<Audience, 'groups'> } | { groups: readonly string[] };

/** A right as written on the command line: `everyone`, `members`, `staff`, or group names separated by commas. */
export function parseAllowed(text: string, right: 'read' | 'topics' | 'replies'): AllowedInput {
  const value = text.trim();
  if (value === 'everyone' || value === 'members' || value === 'staff') {
    if (value === 'everyone' && right !== 'read') {
      throw new RuleViolated(`Validation failed: ${right} cannot be everyone's: writing needs an account`);
    }
    return { audience: value };
  }
  const groups = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (groups.length === 0) {
    throw new RuleViolated(`Validation failed: ${right} must be everyone, members, staff or group names`);
  }
  return { groups: [...new Set(groups)] };
}

/** A right as an administrator reads it back: its audience, or its groups' names. */
export function describeAllowed(allowed: Allowed, groupNames: ReadonlyMap<number, string>): string {
  if (allowed.audience !== 'groups') return allowed.audience;
  return allowed.groupIds.map((id) => groupNames.get(id) ?? `#${id}`).join(',');
}
