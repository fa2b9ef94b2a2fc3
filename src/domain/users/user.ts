import { RuleViolated } from '../shared/errors.js';
import type { Role } from './role.js';

const LOGIN_PATTERN = /^[A-Za-z0-9_.-]{2,20}$/;

/** Whether a string could be a login at all: anything else cannot name a user, so nobody needs to look it up. */
export function couldBeLogin(value: string): boolean {
  return LOGIN_PATTERN.test(value);
}
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Where an account stands (contract §16b): signed up but its address not confirmed; confirmed and waiting for an
 * administrator's approval (REGISTRATION=approval); active. Only an active account gets tokens.
 */
export const ACCOUNT_STATES = ['unverified', 'pending', 'active'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/** The languages the service writes mail and pages in. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

export interface NewUser {
  login: string;
  email: string;
  name?: string | null;
  passwordHash: string | null;
  role: Role;
  /** Active unless said otherwise: accounts an operator makes need no confirmation. */
  state?: AccountState;
  locale?: Locale;
}

export class User {
  id!: number;
  login!: string;
  name!: string | null;
  email!: string;
  passwordHash!: string | null;
  role!: Role;
  state!: AccountState;
  locale!: Locale;
  createdAt!: Date;
  updatedAt!: Date;

  static register(input: NewUser, now: Date): User {
    const login = input.login.trim();
    if (!LOGIN_PATTERN.test(login)) {
      throw new RuleViolated('Validation failed: Login must be 2 to 20 letters, digits, "_", "." or "-"');
    }
    const email = input.email.trim();
    if (!EMAIL_PATTERN.test(email) || email.length > 255) {
      throw new RuleViolated('Validation failed: Email is invalid');
    }
    const name = input.name?.trim() || null;
    if (name !== null && name.length > 100)
      throw new RuleViolated('Validation failed: Name is too long (maximum is 100 characters)');
    const user = new User();
    Object.assign(user, {
      login,
      email,
      name,
      passwordHash: input.passwordHash,
      role: input.role,
      state: input.state ?? 'active',
      locale: input.locale ?? 'en',
      createdAt: now,
      updatedAt: now,
    });
    return user;
  }

  isAdmin(): boolean {
    return this.role === 'admin';
  }

  changeRole(role: Role, now: Date): void {
    this.role = role;
    this.updatedAt = now;
  }

  isActive(): boolean {
    return this.state === 'active';
  }

  /**
   * The address is confirmed: the account is active, or waits for an administrator when sign-ups need approval.
   * Returns whether it was unverified.
   */
  confirmAddress(approvalRequired: boolean, now: Date): boolean {
    if (this.state !== 'unverified') return false;
    this.state = approvalRequired ? 'pending' : 'active';
    this.updatedAt = now;
    return true;
  }

  /** An administrator lets a confirmed account in. Returns whether it was waiting. */
  approve(now: Date): boolean {
    if (this.state !== 'pending') return false;
    this.state = 'active';
    this.updatedAt = now;
    return true;
  }

  /** An operator vouches for the address (forumctl users verify): unverified becomes active. */
  markVerified(now: Date): boolean {
    if (this.state !== 'unverified') return false;
    this.state = 'active';
    this.updatedAt = now;
    return true;
  }

  /** A new address takes effect once a link mailed to it was followed; that proves it too. */
  changeEmail(email: string, now: Date): void {
    this.email = email;
    this.updatedAt = now;
  }

  setPasswordHash(passwordHash: string, now: Date): void {
    this.passwordHash = passwordHash;
    this.updatedAt = now;
  }
}
