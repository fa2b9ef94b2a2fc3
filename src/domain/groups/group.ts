import { RuleViolated } from '../shared/errors.js';

/**
 * A group's name: like a login (contract §23), so that it reads well in a command and in a URL. Written so that
 * PostgreSQL's `~` reads it the same (the homeland import checks teams' logins with it).
 */
export const GROUP_NAME_PATTERN = /^[A-Za-z0-9_.-]{2,40}$/;

/**
 * A group of members (contract §23): nodes give groups the right to read, start topics, reply or moderate there. A
 * hidden group's existence and members are seen only by administrators.
 */
export class Group {
  id!: number;
  name!: string;
  title!: string;
  hidden!: boolean;
  createdAt!: Date;
  updatedAt!: Date;

  static create(input: { name: string; title?: string; hidden?: boolean }, now: Date): Group {
    const group = new Group();
    Object.assign(group, {
      name: validName(input.name),
      title: validTitle(input.title ?? ''),
      hidden: input.hidden ?? false,
      createdAt: now,
      updatedAt: now,
    });
    return group;
  }

  rename(name: string, now: Date): void {
    this.name = validName(name);
    this.updatedAt = now;
  }

  retitle(title: string, now: Date): void {
    this.title = validTitle(title);
    this.updatedAt = now;
  }

  setHidden(hidden: boolean, now: Date): void {
    this.hidden = hidden;
    this.updatedAt = now;
  }
}

function validName(name: string): string {
  const trimmed = name.trim();
  if (!GROUP_NAME_PATTERN.test(trimmed)) {
    throw new RuleViolated('Validation failed: Name must be 2 to 40 letters, digits, "_", "." or "-"');
  }
  return trimmed;
}

function validTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length > 100) throw new RuleViolated('Validation failed: Title is too long (maximum is 100 characters)');
  return trimmed;
}
