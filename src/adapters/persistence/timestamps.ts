/**
 * Raw rows carry timestamps as PostgreSQL prints them (MikroORM installs string parsers for its own hydration):
 * `2026-11-21 08:15:30.12+00`, in UTC since the ORM forces the session time zone. JSON built in SQL carries ISO 8601.
 */
export type Timestamp = Date | string;

export function toDate(value: Timestamp): Date;
export function toDate(value: Timestamp | null): Date | null;
export function toDate(value: Timestamp | null): Date | null {
  if (value === null || value instanceof Date) return value;
  return new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
}
