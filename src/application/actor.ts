import { Forbidden, Unauthenticated } from '../domain/shared/errors.js';
import type { Viewer } from '../domain/users/role.js';

/** The user on whose behalf a use case runs; `null` is an anonymous caller. */
export interface ActingUser extends Viewer {
  readonly login: string;
}
export type Actor = ActingUser | null;

export function requireUser(actor: Actor): ActingUser {
  if (actor === null) throw new Unauthenticated();
  return actor;
}

/** Administration (webhooks, nodes, apps, the audit log): a signed-in administrator, or 401/403. */
export function requireAdmin(actor: Actor, refusal?: string): ActingUser {
  const user = requireUser(actor);
  if (user.role !== 'admin') throw new Forbidden(refusal);
  return user;
}

/** forumctl without `--as` acts as this built-in administrator, created by the first migration. */
export const SYSTEM_LOGIN = 'system';
