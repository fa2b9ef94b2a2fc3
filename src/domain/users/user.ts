import { RuleViolated } from '../shared/errors.js';
import type { Role } from './role.js';

const LOGIN_PATTERN = /^[A-Za-z0-9_.-]{2,20}$/;

/** Whether a string could be a login at all: anything else cannot name a user, so nobody needs to look it up. */
export function couldBeLogin(value: string): boolean {
  return LOGIN_PATTERN.test(value);
}
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUser {
  login: string;
  email: string;
  name?: string | null;
  passwordHash: string | null;
  role: Role;
}

export class User {
  id!: number;
  login!: string;
  name!: string | null;
  email!: string;
  passwordHash!: string | null;
  role!: Role;
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
}
