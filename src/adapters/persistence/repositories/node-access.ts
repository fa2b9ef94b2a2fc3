import type { Audience, NodeAccess } from '../../../domain/nodes/access.js';

/** A node's access as its row holds it (contract §23), selected by `accessColumns`. */
export interface AccessRow {
  read_access: Audience;
  topics_access: Audience;
  replies_access: Audience;
  read_groups: number[];
  topics_groups: number[];
  replies_groups: number[];
  moderator_groups: number[];
}

/** The columns of `AccessRow`, of the node `alias`. */
export const accessColumns = (alias: string) =>
  ['read_access', 'topics_access', 'replies_access', 'read_groups', 'topics_groups', 'replies_groups', 'moderator_groups']
    .map((column) => `${alias}.${column}`)
    .join(', ');

export const accessOf = (row: AccessRow): NodeAccess => ({
  read: { audience: row.read_access, groupIds: row.read_groups },
  topics: { audience: row.topics_access, groupIds: row.topics_groups },
  replies: { audience: row.replies_access, groupIds: row.replies_groups },
  moderatorGroupIds: row.moderator_groups,
});

/** The values `accessColumns` names, in its order, to write. */
export const accessValues = (access: NodeAccess): unknown[] => [
  access.read.audience,
  access.topics.audience,
  access.replies.audience,
  access.read.groupIds,
  access.topics.groupIds,
  access.replies.groupIds,
  access.moderatorGroupIds,
];
