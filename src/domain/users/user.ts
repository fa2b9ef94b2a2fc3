import { RuleViolated } from '../shared/errors.js';
import type { Role } from './role.js';

const LOGIN_PATTERN = /^[A-Za-z0-9_.-]{2,20}$/;
/**
 * Logins that are paths of the forum's pages (contract §21a: `/<login>` is a profile, beside `/topics`, `/nodes`…)
 * or of the service: nobody may sign up as one, in any case.
 */
const RESERVED_LOGINS = new Set([
  'topics',
  'nodes',
  'users',
  'search',
  'account',
  'setting',
  'settings',
  'notifications',
  'messages',
  'admin',
  'api',
  'oauth',
  'uploads',
  'avatars',
  'docs',
  'sitemap',
  'sitemap.xml',
  'robots.txt',
  'favicon.ico',
  'healthz',
  'readyz',
  'metrics',
  'feed',
  'about',
  'help',
  'new',
  'assets',
  'static',
]);

/** Whether a login is one of the forum's paths (RESERVED_LOGINS). */
export const isReservedLogin = (login: string): boolean => RESERVED_LOGINS.has(login.trim().toLowerCase());

/** Whether a string could be a login at all: anything else cannot name a user, so nobody needs to look it up. */
export function couldBeLogin(value: string): boolean {
  return LOGIN_PATTERN.test(value);
}
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Where an account stands (contract §16b, §16c): signed up but its address not confirmed; confirmed and waiting for an
 * administrator's approval (REGISTRATION=approval); active; left (anonymized: `LEFT_ACCOUNT`). Only an active account
 * gets tokens.
 */
export const ACCOUNT_STATES = ['unverified', 'pending', 'active', 'left'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/**
 * What an account that left is (contract §16c): anonymized, not erased, so that what it wrote keeps an author. Its
 * login becomes `deleted_<id>`, its address a placeholder nobody receives (RFC 2606's `.invalid`), its name and
 * profile empty, no password opens it, nothing is mailed to it, and it is no administrator. `User.anonymize` makes
 * one; the homeland import makes homeland's deleted accounts the same, from these values.
 */
export const LEFT_ACCOUNT = {
  state: 'left',
  loginPrefix: 'deleted_',
  emailDomain: 'deleted.invalid',
  emailNotifications: 'none',
  emailDigest: 'none',
  emailMessages: 'never',
  role: 'member',
} as const satisfies {
  state: AccountState;
  loginPrefix: string;
  emailDomain: string;
  emailNotifications: EmailNotifications;
  emailDigest: EmailDigest;
  emailMessages: EmailMessages;
  role: Role;
};

/** The login and address an account that left has. */
export const leftAccountNames = (id: number) => ({
  login: `${LEFT_ACCOUNT.loginPrefix}${id}`,
  email: `${LEFT_ACCOUNT.loginPrefix}${id}@${LEFT_ACCOUNT.emailDomain}`,
});

/** The languages the service writes mail and pages in. */
export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** The profile a user edits (contract §16c); `emailPublic` shows the address to everyone. */
export class Profile {
  location: string | null = null;
  company: string | null = null;
  twitter: string | null = null;
  github: string | null = null;
  website: string | null = null;
  tagline: string | null = null;
  bio: string | null = null;
  emailPublic = false;
}

/** An address as accounts hold it: trimmed, of the shape name@host.tld, at most 255 characters. */
export function checkedEmail(value: string): string {
  const email = value.trim();
  if (!EMAIL_PATTERN.test(email) || email.length > 255) throw new RuleViolated('Validation failed: Email is invalid');
  return email;
}

/** Which notifications are mailed, and how often a digest comes (contract §17). */
export const EMAIL_NOTIFICATIONS = ['mentions_and_replies', 'mentions', 'none'] as const;
export type EmailNotifications = (typeof EMAIL_NOTIFICATIONS)[number];
export const EMAIL_DIGESTS = ['weekly', 'daily', 'none'] as const;
export type EmailDigest = (typeof EMAIL_DIGESTS)[number];
/** Whether private messages (contract §24) are mailed. */
export const EMAIL_MESSAGES = ['always', 'never'] as const;
export type EmailMessages = (typeof EMAIL_MESSAGES)[number];

/** What every account starts with, until its owner chooses otherwise (a mail says which it follows). */
export const DEFAULT_MAIL_PREFERENCES = {
  emailNotifications: 'mentions_and_replies',
  emailDigest: 'weekly',
  emailMessages: 'always',
} as const satisfies { emailNotifications: EmailNotifications; emailDigest: EmailDigest; emailMessages: EmailMessages };

export interface MailPreferences {
  emailNotifications: EmailNotifications;
  emailDigest: EmailDigest;
  emailMessages: EmailMessages;
  locale: Locale;
}

export interface NewUser {
  login: string;
  email: string;
  name?: string | null;
  passwordHash: string | null;
  role: Role;
  /** Active unless said otherwise: accounts an operator makes need no confirmation. */
  state?: AccountState;
  locale?: Locale;
  /** Signed up through the sign-up page or API (contract §16b): its first posts are subject to §18's rules. */
  selfRegistered?: boolean;
}

/** What is wrong with a new account's login, address and name, each said once (none: `User.register` takes them). */
export function accountProblems(input: { login: string; email: string; name?: string | null }): string[] {
  const problems: string[] = [];
  if (!LOGIN_PATTERN.test(input.login.trim())) problems.push('Login must be 2 to 20 letters, digits, "_", "." or "-"');
  else if (isReservedLogin(input.login)) problems.push('Login is reserved: it is the name of a page of the forum');
  const email = input.email.trim();
  if (!EMAIL_PATTERN.test(email) || email.length > 255) problems.push('Email is invalid');
  const name = input.name?.trim() || null;
  if (name !== null && name.length > 100) problems.push('Name is too long (maximum is 100 characters)');
  return problems;
}

/** Why an account may not sign in now: not confirmed, waiting for approval, or suspended (contract §16b, §18). */
export type SignInRefusal = { reason: 'unverified' | 'pending' | 'left' } | { reason: 'suspended'; until: Date };

/** An end (of a silence, a suspension) still ahead of `now`, or null. */
const inForce = (end: Date | null, now: Date): Date | null => (end !== null && end > now ? end : null);

export class User {
  id!: number;
  login!: string;
  name!: string | null;
  email!: string;
  passwordHash!: string | null;
  role!: Role;
  state!: AccountState;
  locale!: Locale;
  emailNotifications!: EmailNotifications;
  emailDigest!: EmailDigest;
  emailMessages!: EmailMessages;
  /** What the owner tells about themself (contract §16c); null when unset. */
  profile!: Profile;
  /** Signed up itself (§16b); accounts an administrator created or imported, and older ones, are trusted (§18). */
  selfRegistered!: boolean;
  /** Until then it may read and like, not post (contract §18); null or past: not silenced. */
  silencedUntil!: Date | null;
  /** Until then it may not sign in (contract §18); null or past: not suspended. */
  suspendedUntil!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;

  static register(input: NewUser, now: Date): User {
    const [problem] = accountProblems(input);
    if (problem) throw new RuleViolated(`Validation failed: ${problem}`);
    const login = input.login.trim();
    const email = checkedEmail(input.email);
    const name = input.name?.trim() || null;
    const user = new User();
    Object.assign(user, {
      login,
      email,
      name,
      passwordHash: input.passwordHash,
      role: input.role,
      state: input.state ?? 'active',
      locale: input.locale ?? 'en',
      ...DEFAULT_MAIL_PREFERENCES,
      profile: new Profile(),
      selfRegistered: input.selfRegistered ?? false,
      silencedUntil: null,
      suspendedUntil: null,
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

  /** Why the account may not sign in at `now`, or null when it may. */
  signInRefusal(now: Date): SignInRefusal | null {
    if (this.state !== 'active') return { reason: this.state };
    const suspended = inForce(this.suspendedUntil, now);
    if (suspended) return { reason: 'suspended', until: suspended };
    return null;
  }

  /**
   * Silenced until `until` (contract §18): it may read and like, not post; it ends by itself. Administrators are
   * not silenced (take the role first). Returns the previous end, for the audit log.
   */
  silence(until: Date, now: Date): Date | null {
    this.requireDisciplinable('silenced');
    const before = this.silencedUntil;
    this.silencedUntil = until;
    this.updatedAt = now;
    return before;
  }

  /** Suspended until `until`: no sign-in (its tokens and sessions are ended by the caller); it ends by itself. */
  suspend(until: Date, now: Date): Date | null {
    this.requireDisciplinable('suspended');
    const before = this.suspendedUntil;
    this.suspendedUntil = until;
    this.updatedAt = now;
    return before;
  }

  /** Ends a silence in force early. Returns the end it had; null when none was in force (then nothing changes). */
  unsilence(now: Date): Date | null {
    const before = inForce(this.silencedUntil, now);
    if (before) this.silencedUntil = null;
    return this.touchedIf(before, now);
  }

  /** Ends a suspension in force early. Returns the end it had; null when none was in force (then nothing changes). */
  unsuspend(now: Date): Date | null {
    const before = inForce(this.suspendedUntil, now);
    if (before) this.suspendedUntil = null;
    return this.touchedIf(before, now);
  }

  private touchedIf<T>(changed: T, now: Date): T {
    if (changed) this.updatedAt = now;
    return changed;
  }

  private requireDisciplinable(what: string): void {
    if (this.role === 'admin')
      throw new RuleViolated(`Validation failed: an administrator cannot be ${what}; change the role first`);
    if (this.login === 'system') throw new RuleViolated(`Validation failed: the system user cannot be ${what}`);
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

  /**
   * The owner's edit of their name and profile (contract §16c): each field given is checked and set (blank clears
   * it); fields not given stay.
   */
  editProfile(changes: Partial<Profile> & { name?: string | null }, now: Date): void {
    const text = (value: string | null | undefined, field: string, max: number): string | null => {
      const trimmed = value?.trim() ?? '';
      if (trimmed.length > max) throw new RuleViolated(`Validation failed: ${field} is too long (maximum is ${max} characters)`);
      return trimmed === '' ? null : trimmed;
    };
    if (changes.name !== undefined) this.name = text(changes.name, 'Name', 50);
    const p = this.profile;
    if (changes.location !== undefined) p.location = text(changes.location, 'Location', 100);
    if (changes.company !== undefined) p.company = text(changes.company, 'Company', 100);
    if (changes.twitter !== undefined) p.twitter = text(changes.twitter, 'Twitter', 100);
    if (changes.github !== undefined) p.github = text(changes.github, 'Github', 100);
    if (changes.tagline !== undefined) p.tagline = text(changes.tagline, 'Tagline', 100);
    if (changes.bio !== undefined) p.bio = text(changes.bio, 'Bio', 2000);
    if (changes.website !== undefined) {
      const website = text(changes.website, 'Website', 255);
      if (website !== null && !/^https?:\/\/[^\s/$.?#][^\s]*$/i.test(website)) {
        throw new RuleViolated('Validation failed: Website must be an http or https URL');
      }
      p.website = website;
    }
    if (changes.emailPublic !== undefined) p.emailPublic = changes.emailPublic;
    this.updatedAt = now;
  }

  preferences(): MailPreferences {
    return {
      emailNotifications: this.emailNotifications,
      emailDigest: this.emailDigest,
      emailMessages: this.emailMessages,
      locale: this.locale,
    };
  }

  setPreferences(changes: Partial<MailPreferences>, now: Date): void {
    Object.assign(this, Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)));
    this.updatedAt = now;
  }

  /**
   * The account is left (contract §16c): anonymized, not erased, so that what it wrote keeps an author. Its login
   * becomes `deleted_<id>`, its address a placeholder nobody receives (and nothing is mailed to it), its name and
   * profile empty, and no password opens it. It can no longer act as anyone special.
   */
  anonymize(now: Date): void {
    Object.assign(this, leftAccountNames(this.id));
    this.state = LEFT_ACCOUNT.state;
    this.name = null;
    this.passwordHash = null;
    this.profile = new Profile();
    // Nobody is there to mail: no notification mail, no digest.
    this.emailNotifications = LEFT_ACCOUNT.emailNotifications;
    this.emailDigest = LEFT_ACCOUNT.emailDigest;
    this.emailMessages = LEFT_ACCOUNT.emailMessages;
    if (this.role === 'admin') this.role = LEFT_ACCOUNT.role;
    this.updatedAt = now;
  }

  /** Whether the account was left (anonymize): nobody receives its placeholder address, so nobody writes from it. */
  isAnonymized(): boolean {
    return this.state === LEFT_ACCOUNT.state;
  }

  /** A new address takes effect once a link mailed to it was followed; that proves it too. */
  changeEmail(email: string, now: Date): void {
    this.email = email;
    this.updatedAt = now;
  }

  /**
   * Whether a password opens the account. One made by signing in with another provider (contract §25), or imported
   * from homeland without one, has none (a null digest) until a reset link sets it; one that left has none either.
   */
  hasPassword(): boolean {
    return this.passwordHash !== null;
  }

  setPasswordHash(passwordHash: string, now: Date): void {
    this.passwordHash = passwordHash;
    this.updatedAt = now;
  }
}
