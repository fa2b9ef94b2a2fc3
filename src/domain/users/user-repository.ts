import type { User } from './user.js';

export interface UserRepository {
  findById(id: number): Promise<User | null>;
  /** Case-insensitive. */
  findByLogin(login: string): Promise<User | null>;
  /** Case-insensitive, by login or email. */
  findByLoginOrEmail(loginOrEmail: string): Promise<User | null>;
  isTaken(login: string, email: string): Promise<{ login: boolean; email: boolean }>;
  add(user: User): Promise<void>;
  blockNode(userId: number, nodeId: number): Promise<void>;
  unblockNode(userId: number, nodeId: number): Promise<void>;
  blockUser(userId: number, blockedUserId: number): Promise<void>;
  unblockUser(userId: number, blockedUserId: number): Promise<void>;
  /** Idempotent: returns whether the relation changed. */
  follow(followerId: number, followeeId: number): Promise<boolean>;
  unfollow(followerId: number, followeeId: number): Promise<boolean>;
}
export const UserRepository = Symbol.for('UserRepository');
