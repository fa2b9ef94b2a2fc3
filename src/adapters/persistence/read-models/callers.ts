import type { Actor, CallerRef } from '../../../application/actor.js';
import type { Role } from '../../../domain/users/role.js';
import { groupsOf } from './visibility.js';

/**
 * The caller inside a read's own statement (issue 18: one round trip instead of a token lookup and then the
 * read). Statements that use it start with `with ${VIEWER_CTE}` and bind `callerParams(ref)` as $1–$5: either a
 * bearer token's digest to look up (as the token store does: live, unrevoked) or an actor already known. The
 * CTE has one row (id, login, role, and the ids of their groups, which the visibility policy reads) for a caller and
 * none for anonymous; rows carry it as VIEWER_COLUMNS.
 */
export const VIEWER_CTE = `viewer as (
    select u.id, u.login::text as login, u.role::text as role, u.group_ids as groups
    from oauth_tokens k join users u on u.id = k.user_id
    where k.access_digest = $1 and k.revoked_at is null and k.expires_at > to_timestamp($2::float8 / 1000)
    union all
    select $3::int, $4::text, $5::text, ${groupsOf('$3::int')} where $3::int is not null)`;

/** The caller's columns, from `viewer v` joined (left) into the statement. */
export const VIEWER_COLUMNS = 'v.id as viewer_id, v.login as viewer_login, v.role as viewer_role';

export interface ViewerColumns {
  viewer_id: number | null;
  viewer_login: string | null;
  viewer_role: Role | null;
}

export function callerParams(ref: CallerRef): unknown[] {
  // The time as epoch milliseconds: pg would format a Date through its local-time path, and even ISO text costs the
  // lightest read a few per cent of its CPU (docs/performance.md).
  if ('accessDigest' in ref) return [ref.accessDigest, ref.at.getTime(), null, null, null];
  const { actor } = ref;
  return [null, null, actor?.id ?? null, actor?.login ?? null, actor?.role ?? null];
}

/** Whether the statement may find a caller (a digest to look up, or a known actor). */
export const mayBeSignedIn = (ref: CallerRef): boolean => 'accessDigest' in ref || ref.actor !== null;

export function viewerOf(row: ViewerColumns | undefined): Actor {
  if (!row || row.viewer_id === null) return null;
  return { id: row.viewer_id, login: row.viewer_login!, role: row.viewer_role! };
}
