import { Forbidden, Unauthenticated } from '../domain/shared/errors.js';
import type { Viewer } from '../domain/users/role.js';

/** The user on whose behalf a use case runs; `null` is an anonymous caller. */
export interface ActingUser extends Viewer {
  readonly login: string;
  /**
   * An administrator held back by REQUIRE_2FA=admins until they set up a second factor (contract §25): they act as a
   * member meanwhile (role `member`), and administration tells them why it refuses (SecondFactorFirst).
   */
  readonly adminOnHold?: true;
}
export type Actor = ActingUser | null;

export function requireUser(actor: Actor): ActingUser {
  if (actor === null) throw new Unauthenticated();
  return actor;
}

/** An administrator's act refused until they set up a second factor (REQUIRE_2FA=admins, contract §25). */
export class SecondFactorFirst extends Forbidden {
  constructor() {
    super('Set up two-factor sign-in before acting as an administrator: /account/settings/two-factor');
  }
}

/** Administration (webhooks, nodes, apps, the audit log): a signed-in administrator, or 401/403. */
export function requireAdmin(actor: Actor, refusal?: string): ActingUser {
  const user = requireUser(actor);
  if (user.adminOnHold) throw new SecondFactorFirst();
  if (user.role !== 'admin') throw new Forbidden(refusal);
  return user;
}

/** forumctl without `--as` acts as this built-in administrator, created by the first migration. */
export const SYSTEM_LOGIN = 'system';

/**
 * Who calls, as a request names them: an actor already known (forumctl, a write whose caller was resolved
 * first), or the digest of a bearer token not yet looked up. A read that takes a CallerRef looks the token up in
 * its own statement, one round trip for both (issue 18), and returns who the caller turned out to be: an
 * unknown, expired or revoked token reads as anonymous, as everywhere else.
 */
export type CallerRef = { readonly actor: Actor } | { readonly accessDigest: string; readonly at: Date };

/** A read's result and the caller it found. */
export interface Identified<T> {
  viewer: Actor;
  result: T;
}
