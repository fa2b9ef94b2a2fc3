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
  adjustCounter(userId: number, counter: UserCounter, delta: number): Promise<void>;
  /** Moves the user's count of replies for the calendar month (UTC) of `at`: what "most active" ranks by. */
  adjustMonthlyReplies(userId: number, at: Date, delta: number): Promise<void>;
  /** Idempotent: returns whether the relation changed. */
  follow(followerId: number, followeeId: number): Promise<boolean>;
  unfollow(followerId: number, followeeId: number): Promise<boolean>;
}
export const UserRepository = Symbol.for('UserRepository');

export type UserCounter = 'topicsCount' | 'repliesCount' | 'favoritesCount' | 'followersCount' | 'followingCount';
