export const ROLES = ['member', 'admin', 'blocked'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Who is acting, as far as the rules care: a user id and a role; `null` is an anonymous caller. */
export interface Viewer {
  readonly id: number;
  readonly role: Role;
}
