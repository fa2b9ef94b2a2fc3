/** What a token lets its holder do: `all` (everything the user may), or `read` (GET only; contract §10). */
export const SCOPES = ['all', 'read'] as const;
export type Scope = (typeof SCOPES)[number];
export const DEFAULT_SCOPE: Scope = 'all';

/** A requested scope (`all`, `read`, or both, space separated) as the one scope it grants; null when unknown. */
export function grantedScope(requested: readonly string[] | undefined): Scope | null {
  if (!requested || requested.length === 0) return DEFAULT_SCOPE;
  if (requested.some((scope) => !(SCOPES as readonly string[]).includes(scope))) return null;
  return requested.includes('all') ? 'all' : 'read';
}

/** The scope a refresh may give: the granted one, or a narrower one; null when it asks for more (or for nonsense). */
export function refreshedScope(granted: Scope, requested: readonly string[] | undefined): Scope | null {
  if (!requested || requested.length === 0) return granted;
  const asked = grantedScope(requested);
  return asked === 'read' || asked === granted ? asked : null;
}
