import type { User } from './user.js';

export interface UserRepository {
  findById(id: number): Promise<User | null>;
  /** Case-insensitive. */
  findByLogin(login: string): Promise<User | null>;
  /** Case-insensitive, by login or email. */
  findByLoginOrEmail(loginOrEmail: string): Promise<User | null>;
  isTaken(login: string, email: string): Promise<{ login: boolean; email: boolean }>;
  /** Adds the user; throws LoginTaken or EmailTaken when another took it first (at once, in another request). */
  add(user: User): Promise<void>;
  /** Deletes an account that holds nothing else (a rejected sign-up). */
  remove(user: User): Promise<void>;
  /** Draws the id the next new user would have had, so that an answer can look like a new account's. */
  reserveId(): Promise<number>;
  blockNode(userId: number, nodeId: number): Promise<void>;
  unblockNode(userId: number, nodeId: number): Promise<void>;
  blockUser(userId: number, blockedUserId: number): Promise<void>;
  unblockUser(userId: number, blockedUserId: number): Promise<void>;
  /** Idempotent: returns whether the relation changed. */
  follow(followerId: number, followeeId: number): Promise<boolean>;
  unfollow(followerId: number, followeeId: number): Promise<boolean>;
}
export const UserRepository = Symbol.for('UserRepository');

/** Another account has this login (it was taken between the check and the insert). */
export class LoginTaken extends Error {
  constructor() {
    super('login taken');
  }
}

/** Another account has this e-mail address (it was taken between the check and the insert). */
export class EmailTaken extends Error {
  constructor() {
    super('email taken');
  }
}
