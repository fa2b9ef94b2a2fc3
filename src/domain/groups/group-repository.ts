import type { Group } from './group.js';

export interface GroupRepository {
  /** By name, whatever its case. */
  byName(name: string): Promise<Group | null>;
  /** The ids of the groups named, by name in any case; a name no group has is absent. */
  idsByName(names: readonly string[]): Promise<Map<string, number>>;
  /** The names of the groups with these ids. */
  namesById(ids: readonly number[]): Promise<Map<number, string>>;
  /**
   * The names of those groups of `ids` that are not hidden, by name: what anyone may be told of them (contract §23: a
   * hidden group's existence is the administrators' to know).
   */
  publicNames(ids: readonly number[]): Promise<string[]>;
  nameTaken(name: string, exceptId?: number): Promise<boolean>;
  add(group: Group): Promise<void>;
  /** Writes its name, title and whether it is hidden. */
  save(group: Group): Promise<void>;
  /**
   * Deletes it, its memberships, and its place in every node's access (contract §23: a right that named only it
   * narrows to staff); returns who were its members.
   */
  remove(group: Group): Promise<number[]>;
  /** Adds the users as members; returns the ids that were not members yet. */
  addMembers(groupId: number, userIds: readonly number[]): Promise<number[]>;
  /** Removes the users; returns the ids that were members. */
  removeMembers(groupId: number, userIds: readonly number[]): Promise<number[]>;
  /** The ids of the groups `userId` belongs to. */
  groupIdsOf(userId: number): Promise<number[]>;
}
export const GroupRepository = Symbol.for('GroupRepository');
